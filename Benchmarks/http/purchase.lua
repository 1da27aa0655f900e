-- The vending machine at the counter: each connection inserts 5,000 won, then buys three
-- Georgia coffees (1,500 won each), and again. Money inserts and purchases are both measured.
-- The requests are built once, so that wrk spends as little CPU as for a plain GET.
local insert, buy
local step = 0

init = function(args)
  insert = wrk.format("POST", "/api/vending/money", { ["Content-Type"] = "application/json" }, '{"amount":5000}')
  buy = wrk.format("POST", "/api/vending/purchases", { ["Content-Type"] = "application/json" }, '{"product":"georgia"}')
end

request = function()
  step = step + 1
  if step % 4 == 1 then return insert end
  return buy
end
