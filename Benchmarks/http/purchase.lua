-- The vending machine at the counter: each connection inserts 1,000 and 500 won, then buys one
-- Georgia coffee (1,500 won), and again. Money inserts and purchases are both measured. A
-- connection never has more than 1,500 won in the machine, so 32 connections together stay
-- under its 50,000 won balance cap, and each purchase is covered by its own connection's money
-- (inserted before it): no request is refused for the shared balance.
-- The requests are built once, so that wrk spends as little CPU as for a plain GET.
local requests = {}
local step = 0

init = function(args)
  local json = { ["Content-Type"] = "application/json" }
  requests[1] = wrk.format("POST", "/api/vending/money", json, '{"amount":1000}')
  requests[2] = wrk.format("POST", "/api/vending/money", json, '{"amount":500}')
  requests[3] = wrk.format("POST", "/api/vending/purchases", json, '{"product":"georgia"}')
end

request = function()
  step = step % 3 + 1
  return requests[step]
end
