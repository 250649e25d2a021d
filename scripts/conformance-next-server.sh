#!/usr/bin/env bash
# Runs the official conformance suite 0.2.0-alpha.12 (node_modules/conformance-next) in server mode
# against examples/conformance-server.ts, for one requirement set:
#   scripts/conformance-next-server.sh 2026-07-28     # the modern era (stateless requests, MRTR, listen...)
#   scripts/conformance-next-server.sh 2025-11-25     # the legacy era, on the same server process kind
# The CLI needs Node 22 (npx -y node@22). Required scenarios decide the CLI's exit code; not-scored
# ones (pending, extension) run and are listed. This script is stricter than the CLI: a WARNING
# in a required scenario fails it too (CONFORMANCE_ALLOW_WARNINGS=1 only lists them), and fewer
# scenarios than EXPECTED (env, default per set) reporting fails. Results: results/next-<set>-<time>/.
# SKIP_BUILD=1 reuses dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
set_name=${1:?usage: conformance-next-server.sh <requirement set: 2026-07-28 | 2025-11-25>}
cli=node_modules/conformance-next/dist/index.js

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  npx tsc -p tsconfig.build.json || echo "warning: the build reported errors; going on with the emitted dist/" >&2
fi
[ -n "${SERVER_CMD:-}" ] || [ -f dist/examples/conformance-server.js ] || { echo "dist/examples/conformance-server.js was not built" >&2; exit 1; }

port=${PORT:-$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}
url="http://127.0.0.1:${port}/mcp"
out="results/next-${set_name}-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
log="$out/server.log"

${SERVER_CMD:-node dist/examples/conformance-server.js} --port "$port" >"$log" 2>&1 &
server_pid=$!
cleanup() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  if ! kill -0 "$server_pid" 2>/dev/null; then echo "the conformance server exited early:" >&2; cat "$log" >&2; exit 1; fi
  if (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null; then ready=1; break; fi
  sleep 0.1
done
[ "${ready:-0}" = 1 ] || { echo "the conformance server did not listen on ${port} within 10 s" >&2; cat "$log" >&2; exit 1; }
echo "== conformance ${set_name} against ${url} (log: ${log})"

status=0
timeout 1200 npx -y node@22 "$cli" server --url "$url" --requirements "$set_name" -o "$out" >"$out/suite.txt" 2>&1 || status=$?
sed -n '/=== SUMMARY ===/,$p' "$out/suite.txt" | head -80
node scripts/conformance-next-summary.mjs "$out" "$set_name" || status=1
[ "$status" -eq 0 ] || { echo "conformance ${set_name}: FAILED (details in ${out}/)"; exit 1; }
echo "conformance ${set_name}: PASSED"
