-- POST /api/orders, each request a juice of the menu in turn.
local juices = { "strawberryBananaJuice", "mangoKiwiJuice", "strawberryJuice", "bananaJuice",
                 "pineappleJuice", "kiwiJuice", "mangoJuice" }
local counter = 0
request = function()
  counter = counter + 1
  local body = '{"juice":"' .. juices[(counter % #juices) + 1] .. '"}'
  return wrk.format("POST", "/api/orders", { ["Content-Type"] = "application/json" }, body)
end
