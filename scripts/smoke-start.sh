#!/usr/bin/env bash
# Smoke test of `npm start` as a new user runs it: the demo server comes up on 127.0.0.1, prints
# its URL, and answers an MCP initialize over Streamable HTTP. Then it is stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
log=$(mktemp)
# Its own process group (setsid), so the trap stops npm, its shell and the node server under it
# (killing npm and its direct children left the server orphaned).
PORT=$port setsid npm start >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 600); do  # up to 60 s: npm start builds first (tsc), slow on a loaded machine
  url=$(grep -o "http://127.0.0.1:${port}/mcp" "$log" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "npm start printed no URL:"; cat "$log"; exit 1; }
reply=$(curl -s -D - -X POST "$url" \
  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}')
grep -qi '^mcp-session-id:' <<<"$reply" || { echo "no session id in:"; echo "$reply"; exit 1; }
grep -q '"protocolVersion":"2025-11-25"' <<<"$reply" || { echo "no initialize result in:"; echo "$reply"; exit 1; }
echo "npm start: serving $url, initialize answered"
