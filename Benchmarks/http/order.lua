-- POST /api/orders, each request a juice of the menu in turn. The requests are built once,
-- so that wrk itself spends as little of the shared CPU as for a plain GET.
local juices = { "strawberryBananaJuice", "mangoKiwiJuice", "strawberryJuice", "bananaJuice",
                 "pineappleJuice", "kiwiJuice", "mangoJuice" }
local requests = {}
local counter = 0

init = function(args)
  for i, juice in ipairs(juices) do
    requests[i] = wrk.format("POST", "/api/orders", { ["Content-Type"] = "application/json" },
                             '{"juice":"' .. juice .. '"}')
  end
end

request = function()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end
