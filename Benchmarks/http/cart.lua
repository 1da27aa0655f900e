-- POST /api/orders, each request a cart of two lines with options, two cups each (issue 51's
-- measure): the pricing of every line and the stock of both taken together in one write. The
-- requests are built once, so that wrk itself spends as little of the shared CPU as for a GET.
local carts = {
  { "strawberryBananaJuice", "mangoKiwiJuice" }, { "bananaJuice", "kiwiJuice" },
  { "pineappleJuice", "mangoJuice" }, { "strawberryJuice", "bananaJuice" },
}
local requests = {}
local counter = 0

init = function(args)
  for i, pair in ipairs(carts) do
    requests[i] = wrk.format("POST", "/api/orders", { ["Content-Type"] = "application/json" },
      '{"lines":[{"juice":"' .. pair[1] .. '","quantity":2,"options":{"size":["large"],"ice":["less"]}},' ..
      '{"juice":"' .. pair[2] .. '","quantity":2,"options":{"sweetness":["less"]}}]}')
  end
end

request = function()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end
