-- Used by bench/lib/wrk.ts. wrk calls done() once at the end; it prints one JSON line.
-- WRK_METHOD and WRK_BODY (optional) set the request; each "[<id>]" in the body becomes a number
-- unique to the request, so every POSTed lead is a new one (autocannon's -I). WRK_ID_HEADER names a
-- header that gets the same unique number (an Idempotency-Key). WRK_STOP_AFTER (optional) stops the
-- load once that many answers arrived (a burst of a given size rather than a duration).
local method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
local id_header = os.getenv("WRK_ID_HEADER")
local stop_after = tonumber(os.getenv("WRK_STOP_AFTER") or "")
local answered = 0
local counter = 0
local thread_count = 0

function setup(thread)
  thread:set("thread_id", thread_count)
  thread_count = thread_count + 1
end

function request()
  if body == nil and id_header == nil then
    return wrk.format(method, nil, nil, nil)
  end
  counter = counter + 1
  local unique = tostring(thread_id) .. "-" .. tostring(counter)
  local headers = nil
  if id_header ~= nil then
    headers = {}
    for name, value in pairs(wrk.headers) do
      headers[name] = value
    end
    headers[id_header] = "bench-" .. unique
  end
  local payload = nil
  if body ~= nil then
    payload = body:gsub("%[<id>%]", unique)
  end
  return wrk.format(method, nil, headers, payload)
end

if stop_after ~= nil then
  function response()
    answered = answered + 1
    if answered == stop_after then
      wrk.thread:stop()
      -- wrk's main thread sleeps for the whole duration unless interrupted; SIGINT makes it end
      -- now and report. system() ignores SIGINT while it runs: the kill comes from a background job.
      os.execute("(sleep 0.01; kill -INT $PPID) &")
    end
  end
end

function done(summary, latency, requests)
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"p50Us":%d,"p99Us":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"statusErrors":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(99),
    summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.timeout, summary.errors.status))
end
