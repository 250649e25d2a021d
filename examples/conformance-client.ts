/**
 * The client the official conformance suite runs: `node dist/examples/conformance-client.js <url>`
 * with the scenario in MCP_CONFORMANCE_SCENARIO. Built with the public API only. Exits 0 when the
 * scenario's flow completed, 1 on an error, 2 for a scenario it does not know.
 */
import {
  createClientCredentialsProvider,
  createCrossAppAccessProvider,
  createWorkloadIdentityProvider,
  createHeadlessOAuthProvider,
  type HttpClientAuth,
  type JwtAlgorithm,
  type OAuthClientInformation,
} from '../lib/auth/index.js';
import { createClient, type Client } from '../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../streams/streamable-http-client.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

type Flow = (client: Client) => Promise<void>;

/** The authorization-code scenarios: the flow runs on the first 401, then the tools are used. */
const AUTH_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  // 2026-07-28 (conformance 0.2.0-alpha.12): RFC 9207 iss checks, issuer mismatch, a moved authorization server.
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/authorization-server-migration',
  // Without a user (extension scenarios): client credentials, and cross-app access (SEP-990).
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
  // conformance 0.2.0-alpha.12's name for the same flow.
  'auth/enterprise-managed-authorization',
  // Workload identity federation (SEP-1933): the workload's JWT in the jwt-bearer grant.
  'auth/wif-jwt-bearer',
  // DPoP (SEP-1932): the authorization server advertises ES256, so the client binds its token.
  'auth/dpop',
  'auth/dpop-nonce',
];

/** The client's metadata document URL the suite expects when the server supports CIMD. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Nothing listens here: the headless provider reads the code from the redirect's Location. */
const REDIRECT_URL = 'http://localhost:3000/callback';

/** The scenario's MCP_CONFORMANCE_CONTEXT (credentials, keys, tokens), or an empty object. */
function context(): Record<string, unknown> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

/** A string member of the context, or an error naming it (never its value). */
function required(ctx: Record<string, unknown>, key: string): string {
  const value = ctx[key];
  if (typeof value !== 'string' || value === '') throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${key}`);
  return value;
}

/** Pre-registered credentials from the context, when the scenario gives some. */
function contextCredentials(): OAuthClientInformation | undefined {
  const ctx = context();
  if (typeof ctx.client_id !== 'string') return undefined;
  return { client_id: ctx.client_id, ...(typeof ctx.client_secret === 'string' && { client_secret: ctx.client_secret }) };
}

/** The client's authorization for a scenario: a mode without a user for the extension scenarios, else the headless authorization-code provider. */
function authFor(name: string): HttpClientAuth | undefined {
  if (!name.startsWith('auth/')) return undefined;
  const ctx = context();
  switch (name) {
    case 'auth/client-credentials-basic':
      return createClientCredentialsProvider({ clientId: required(ctx, 'client_id'), clientSecret: required(ctx, 'client_secret') });
    case 'auth/client-credentials-jwt':
      return createClientCredentialsProvider({
        clientId: required(ctx, 'client_id'),
        privateKeyPem: required(ctx, 'private_key_pem'),
        algorithm: (typeof ctx.signing_algorithm === 'string' ? ctx.signing_algorithm : 'ES256') as JwtAlgorithm,
      });
    case 'auth/wif-jwt-bearer':
      return createWorkloadIdentityProvider({ clientId: required(ctx, 'client_id'), assertion: required(ctx, 'valid_jwt') });
    case 'auth/cross-app-access-complete-flow':
    case 'auth/enterprise-managed-authorization':
      return createCrossAppAccessProvider({
        clientId: required(ctx, 'client_id'),
        clientSecret: required(ctx, 'client_secret'),
        idToken: required(ctx, 'idp_id_token'),
        idpTokenEndpoint: required(ctx, 'idp_token_endpoint'),
        idpClientId: required(ctx, 'idp_client_id'),
      });
  }
  const clientInformation = contextCredentials();
  return createHeadlessOAuthProvider({
    redirectUrl: REDIRECT_URL,
    clientMetadata: { client_name: 'mcp-actors-conformance-client' },
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(clientInformation && { clientInformation }),
  });
}

const authFlow: Flow = async (client) => {
  const tools = await client.listTools();
  log(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
  if (tools.some((t) => t.name === 'test-tool')) {
    const result = await client.callTool('test-tool', {});
    log(`test-tool → ${JSON.stringify(result.content)}`);
  }
};

const flows: Record<string, { setup?: (client: Client) => void; run: Flow }> = {
  ...Object.fromEntries(AUTH_SCENARIOS.map((name) => [name, { run: authFlow }])),
  // Connecting is the scenario: initialize, then initialized. (Its server declares no tools.)
  initialize: { run: async () => {} },
  tools_call: {
    run: async (client) => {
      const tools = await client.listTools();
      const add = tools.find((t) => t.name === 'add_numbers');
      if (!add) throw new Error(`the server has no add_numbers tool (it has ${tools.map((t) => t.name).join(', ')})`);
      const result = await client.callTool('add_numbers', { a: 2, b: 3 });
      log(`add_numbers → ${JSON.stringify(result.content)}`);
    },
  },
  'elicitation-sep1034-client-defaults': {
    // The user accepts without touching the form: the defaults the server gave fill it in.
    setup: (client) => client.onElicitation({ form: () => ({ action: 'accept', content: {} }), applyDefaults: true }),
    run: async (client) => {
      const result = await client.callTool('test_client_elicitation_defaults', {});
      log(`elicitation result → ${JSON.stringify(result.content)}`);
    },
  },
  // Skills (io.modelcontextprotocol/skills): a host lists skills and reads nothing more until a skill
  // is loaded; loading one reads SKILL.md, verifies it against the entry (size, digest, frontmatter)
  // and only then reads its other files. A mismatch stops the load: nothing further is read.
  'sep-2640-client-no-prefetch': {
    run: async (client) => {
      const skills = await client.skills.listAll();
      log(`skills: ${skills.map((s) => s.uri).join(', ') || '(none)'}; none loaded, so nothing read`);
    },
  },
  ...Object.fromEntries(
    ['sep-2640-client-verify-digest', 'sep-2640-client-verify-size', 'sep-2640-client-verify-frontmatter'].map((name) => [
      name,
      {
        run: async (client: Client) => {
          for (const entry of await client.skills.listAll()) {
            const skill = await client.skills.load(entry);
            for (const file of skill.files.filter((f) => f !== 'SKILL.md')) log(`${file}: ${(await skill.read(file)).bytes.byteLength} bytes, verified`);
          }
        },
      },
    ]),
  ),
  'sse-retry': {
    run: async (client) => {
      await client.listTools();
      // The server ends this call's stream early; the transport waits its `retry` and resumes.
      const result = await client.callTool('test_reconnection', {}, { timeout: 20_000 });
      log(`test_reconnection → ${JSON.stringify(result.content)}`);
    },
  },
};

/** MCP_CONFORMANCE_CONTEXT as an object (empty when absent or not JSON). */
function scenarioContext(): Record<string, unknown> {
  try {
    return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

// 2026-07-28 scenarios (conformance 0.2.0-alpha.12): the client finds the modern era by itself.
const modernFlows: Record<string, { setup?: (client: Client) => void; run: Flow }> = {
  // Every POST must carry the envelope and headers; the first is refused -32022 and retried.
  'request-metadata': {
    run: async (client) => {
      const tools = await client.listTools();
      log(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
    },
  },
  // The focal tool's inputSchema, echoed back verbatim: nothing of it may be lost in parsing.
  'json-schema-2020-12-preservation': {
    run: async (client) => {
      const tools = await client.listTools();
      const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
      if (!focal) throw new Error('the server has no json_schema_2020_12_tool');
      await client.callTool('json_schema_echo', { schema: focal.inputSchema as unknown as Record<string, unknown> });
    },
  },
  'json-schema-ref-no-deref': {
    run: async (client) => {
      const tools = await client.listTools();
      log(`tools: ${tools.map((t) => t.name).join(', ')}`);
    },
  },
  // MRTR: echo the state byte-exact, call an unrelated tool between rounds, no state when none came, no retry without resultType.
  'sep-2322-client-request-state': {
    setup: (client) => {
      let unrelatedCalled = false;
      client.onElicitation({
        form: async () => {
          if (!unrelatedCalled) {
            unrelatedCalled = true;
            await client.callTool('test_mrtr_unrelated', {});
          }
          return { action: 'accept', content: { confirmed: true } };
        },
      });
    },
    run: async (client) => {
      await client.listTools();
      for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_no_result_type']) {
        const result = await client.callTool(name, {});
        log(`${name} → ${JSON.stringify(result.content)}`);
      }
    },
  },
  // Mcp-Method on every POST, Mcp-Name on tools/call, resources/read and prompts/get.
  'http-standard-headers': {
    run: async (client) => {
      const tools = await client.listTools();
      if (tools[0]) await client.callTool(tools[0].name, {}).catch((e: unknown) => log(`tool: ${String(e)}`));
      const resources = await client.listResources().catch(() => []);
      if (resources[0]) await client.readResource(resources[0].uri).catch((e: unknown) => log(`resource: ${String(e)}`));
      const prompts = await client.listPrompts().catch(() => []);
      if (prompts[0]) await client.getPrompt(prompts[0].name, {}).catch((e: unknown) => log(`prompt: ${String(e)}`));
    },
  },
  // x-mcp-header arguments mirrored into Mcp-Param-* headers, for the calls the context names.
  'http-custom-headers': {
    run: async (client) => {
      await client.listTools();
      const calls = (scenarioContext().toolCalls ?? []) as { name: string; arguments?: Record<string, unknown> }[];
      for (const call of calls) {
        const result = await client.callTool(call.name, call.arguments ?? {});
        log(`${call.name} → ${JSON.stringify(result.content)}`);
      }
    },
  },
  // Tools with invalid x-mcp-header annotations are left out of the list; the valid one is called.
  'http-invalid-tool-headers': {
    run: async (client) => {
      const tools = await client.listTools();
      log(`usable tools: ${tools.map((t) => t.name).join(', ')}`);
      for (const tool of tools) await client.callTool(tool.name, { region: 'us-west1' });
    },
  },
};
// The runner names the revision it targets; the 2026-07-28 scenarios are modern whatever it says.
const modern = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === '2026-07-28' || scenario in modernFlows;
if (modern) Object.assign(flows, modernFlows);

function log(line: string): void {
  process.stderr.write(`[conformance-client ${scenario}] ${line}\n`);
}

async function main(): Promise<number> {
  const flow = flows[scenario];
  if (!flow) {
    log(`unknown scenario "${scenario}"; known: ${Object.keys(flows).join(', ')}`);
    return 2;
  }
  if (!url || !/^https?:\/\//.test(url)) {
    log(`usage: conformance-client <server url> (got ${String(url)})`);
    return 2;
  }
  // The 2026-07-28 runs use the default options (the client finds the era); the 2025-11-25 runs
  // keep the session era.
  const client = createClient({ info: { name: 'mcp-actors-conformance-client', version: '0.1.0' }, ...(!modern && { era: 'legacy' as const }) });
  flow.setup?.(client);
  client.warnings$.subscribe((w) => log(`warning (${w.kind}): ${w.message}`));
  const auth = authFor(scenario);
  await client.connect(createStreamableHttpClientTransport(url, { ...(auth && { auth }) }));
  log(`connected: ${client.serverInfo?.name} at revision ${client.protocolVersion}`);
  try {
    await flow.run(client);
  } finally {
    await client.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exit(1);
  },
);
