-- POST a rotation of requests, one "path<TAB>json body" per line of the file after `--`:
--   wrk -s bench/wrk/mixed.lua http://127.0.0.1:8080 -- requests.tsv
local requests = {}
local next_one = 0

function init(args)
   for line in io.lines(args[1]) do
      local path, body = line:match("^([^\t]+)\t(.*)$")
      requests[#requests + 1] = wrk.format(
         "POST", path, { ["Content-Type"] = "application/json" }, body)
   end
   -- Threads start at different places in the rotation.
   next_one = math.random(#requests) - 1
end

function request()
   next_one = next_one % #requests + 1
   return requests[next_one]
end
