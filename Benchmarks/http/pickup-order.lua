-- POST /api/orders as a member's tap on /home sends it: an order for pickup with an
-- Idempotency-Key of its own, so every request is claimed, made and kept once. Each wrk thread
-- numbers its keys apart from the others' (thread_id is a global of each thread's own Lua state,
-- set by setup before init; a chunk-level local would be 0 in every thread, and half the requests
-- replays), after the run's own mark (wrk's first argument after --: scripts/bench runs wrk again
-- and again on one database, and each run's keys must be new).
-- The requests are built once, as order.lua's, up to the key's number: a request is then two
-- joins, where wrk.format, called per request, built the headers' table and the text anew, and
-- took from the two shared cores what the server would otherwise have.
local juices = { "strawberryBananaJuice", "mangoKiwiJuice", "strawberryJuice", "bananaJuice",
                 "pineappleJuice", "kiwiJuice", "mangoJuice" }
local heads = {}
local tails = {}
local threads_made = 0
local counter = 0

init = function(args)
  local mark = "bench-" .. (args[1] or "") .. "-" .. thread_id .. "-"
  for i, juice in ipairs(juices) do
    local body = '{"juice":"' .. juice .. '","pickup":true}'
    heads[i] = "POST /api/orders HTTP/1.1\r\nHost: " .. wrk.headers["Host"] ..
               "\r\nContent-Type: application/json\r\nContent-Length: " .. #body ..
               "\r\nIdempotency-Key: " .. mark
    tails[i] = "\r\n\r\n" .. body
  end
end

setup = function(thread)
  thread:set("thread_id", threads_made)
  threads_made = threads_made + 1
end

request = function()
  counter = counter + 1
  local i = (counter % #juices) + 1
  return heads[i] .. counter .. tails[i]
end
