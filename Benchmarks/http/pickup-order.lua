-- POST /api/orders as a member's tap on /home sends it: an order for pickup with an
-- Idempotency-Key of its own, so every request is claimed, made and kept once. Each wrk thread
-- numbers its keys apart from the others' (thread_id is a global of each thread's own Lua state,
-- set by setup; a chunk-level local would be 0 in every thread, and half the requests replays),
-- after the run's own mark (wrk's first argument after --: scripts/bench runs wrk again and again on
-- one database, and each run's keys must be new).
local juices = { "strawberryBananaJuice", "mangoKiwiJuice", "strawberryJuice", "bananaJuice",
                 "pineappleJuice", "kiwiJuice", "mangoJuice" }
local threads_made = 0
local counter = 0
local run = ""

init = function(args)
  run = args[1] or ""
end

setup = function(thread)
  thread:set("thread_id", threads_made)
  threads_made = threads_made + 1
end

request = function()
  counter = counter + 1
  local juice = juices[(counter % #juices) + 1]
  return wrk.format("POST", "/api/orders",
                    { ["Content-Type"] = "application/json",
                      ["Idempotency-Key"] = "bench-" .. run .. "-" .. thread_id .. "-" .. counter },
                    '{"juice":"' .. juice .. '","pickup":true}')
end
