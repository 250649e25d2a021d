#!/usr/bin/env bash
# Runs the official conformance suite's client scenarios against examples/conformance-client.ts.
# The suite's CLI needs Node 22 (npx -y node@22 brings it from the npm registry).
# In client mode any FAILURE or WARNING fails a scenario.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build --silent
cli=node_modules/@modelcontextprotocol/conformance/dist/index.js
scenarios=(initialize tools_call elicitation-sep1034-client-defaults sse-retry
  # OAuth 2.1 authorization-code flow (lib/auth/)
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit
  auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none auth/pre-registration
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported
  # Without a user (extension scenarios): client credentials, cross-app access (SEP-990)
  auth/client-credentials-jwt auth/client-credentials-basic auth/cross-app-access-complete-flow)
failed=()
for s in "${scenarios[@]}"; do
  echo "== conformance client: $s"
  if out=$(timeout 120 npx -y node@22 "$cli" client --command "node dist/examples/conformance-client.js" --scenario "$s" 2>&1); then
    echo "$out" | grep -E "Passed:|OVERALL" || true
    grep -q "OVERALL: PASSED" <<<"$out" || failed+=("$s")
  else
    echo "$out" | tail -20
    failed+=("$s")
  fi
done
passed=$(( ${#scenarios[@]} - ${#failed[@]} ))
echo "conformance client: ${passed} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ] || { echo "failed scenarios: ${failed[*]}"; exit 1; }
