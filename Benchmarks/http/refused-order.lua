-- POST /api/orders for a juice the menu does not have: decided with the batch like any order, and
-- refused (404 unknown_juice) with the API's JSON error, as every order is answered once a rush has
-- used up the fruit (409 out_of_stock). Built once, as order.lua.
local request_text

init = function(args)
  request_text = wrk.format("POST", "/api/orders", { ["Content-Type"] = "application/json" },
                            '{"juice":"lemonJuice"}')
end

request = function()
  return request_text
end
