-- POST /api/orders for bananaJuice (2 bananas each), so that what a run stored can be checked
-- against the banana count: it must be its start minus two per stored order.
local body = '{"juice":"bananaJuice"}'
local request_text

init = function(args)
  request_text = wrk.format("POST", "/api/orders", { ["Content-Type"] = "application/json" }, body)
end

request = function()
  return request_text
end
