-- POST one JSON body, read from the file named after `--`:
--   wrk -s bench/wrk/post.lua http://127.0.0.1:8080/v1/dice/roll -- body.json
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

function init(args)
   local file = assert(io.open(args[1], "rb"))
   wrk.body = file:read("*a")
   file:close()
end
