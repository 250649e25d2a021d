#!/usr/bin/env bash
# Runs the official conformance suite 0.2.0-alpha.12 (node_modules/conformance-next) in client mode
# against examples/conformance-client.ts, for one requirement set:
#   scripts/conformance-next-client.sh 2026-07-28     # the client in the modern era
#   scripts/conformance-next-client.sh 2025-11-25     # the legacy era
# Node 22 via npx. Required scenarios must be clean (no FAILURE, no WARNING); not-scored ones
# (extension, pending) run and are listed. EXPECTED (env) is the least number of required
# scenarios that must report. SKIP_BUILD=1 reuses dist/. Results: results/next-client-<set>-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."
set_name=${1:?usage: conformance-next-client.sh <requirement set: 2026-07-28 | 2025-11-25>}
cli=node_modules/conformance-next/dist/index.js
[ "${SKIP_BUILD:-0}" = 1 ] || npm run build --silent
out="results/next-client-${set_name}-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "== conformance client ${set_name} (results: ${out})"
status=0
timeout 1500 npx -y node@22 "$cli" client --command "node dist/examples/conformance-client.js" --requirements "$set_name" -o "$out" >"$out/suite.txt" 2>&1 || status=$?
sed -n '/=== SUMMARY ===/,$p' "$out/suite.txt" | head -80
node scripts/conformance-next-summary.mjs "$out" "$set_name" || status=1
[ "$status" -eq 0 ] || { echo "conformance client ${set_name}: FAILED (details in ${out}/)"; exit 1; }
echo "conformance client ${set_name}: PASSED"
