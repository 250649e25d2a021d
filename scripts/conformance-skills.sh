#!/usr/bin/env bash
# The Skills extension (io.modelcontextprotocol/skills, SEP-2640) in the official conformance suite
# 0.2.0-alpha.12: its 3 server scenarios against examples/conformance-server.ts and its 4 client
# scenarios against examples/conformance-client.ts, in both eras (spec versions 2026-07-28 and
# 2025-11-25). Extension scenarios are on no spec timeline, so each is run by name with --force.
# Every one must report checks and be clean: no FAILURE, no WARNING. Node 22 via npx.
# SKIP_BUILD=1 reuses dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=node_modules/conformance-next/dist/index.js
[ "${SKIP_BUILD:-0}" = 1 ] || npm run build --silent
node22=$(npx -y node@22 -p process.execPath)
out="results/skills-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
node dist/examples/conformance-server.js --port "$port" >"$out/server.log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null && break
  sleep 0.1
done

failed=0
check() { # name, log file
  local line
  line=$(grep -E '^Passed: [0-9]+/[0-9]+' "$2" | tail -1 || true)
  if [[ "$line" =~ ^Passed:\ ([1-9][0-9]*)/([0-9]+),\ 0\ failed,\ 0\ warnings ]]; then echo "  $1: $line"
  else echo "  $1: NOT CLEAN (${line:-no summary}); see $2"; failed=1; fi
}
for version in 2026-07-28 2025-11-25; do
  echo "== skills, spec version ${version}"
  for s in sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory; do
    timeout 300 "$node22" "$cli" server --url "http://127.0.0.1:${port}/mcp" --scenario "$s" --spec-version "$version" --force >"$out/$s-$version.txt" 2>&1 || true
    check "server $s" "$out/$s-$version.txt"
  done
  for s in sep-2640-client-no-prefetch sep-2640-client-verify-digest sep-2640-client-verify-size sep-2640-client-verify-frontmatter; do
    MCP_CONFORMANCE_PROTOCOL_VERSION=$version timeout 300 "$node22" "$cli" client --command "node dist/examples/conformance-client.js" --scenario "$s" --spec-version "$version" --force >"$out/$s-$version.txt" 2>&1 || true
    check "client $s" "$out/$s-$version.txt"
  done
done
[ "$failed" = 0 ] || { echo "conformance skills: FAILED (details in ${out}/)"; exit 1; }
echo "conformance skills: PASSED (7 scenarios, both eras)"
