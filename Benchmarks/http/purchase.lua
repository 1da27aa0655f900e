-- The vending machine at the counter: 1,000 and 500 won go in, then one Georgia coffee (1,500
-- won) is bought, and again: each wrk thread sends these in turn over its connections, so what
-- goes in matches what is bought and the shared balance stays near the float scripts/bench puts
-- in first (10,000 won), far from both empty and its 50,000 won cap: no request is refused for
-- the balance. Money inserts and purchases are both measured.
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
