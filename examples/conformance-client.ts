/**
 * The client the official conformance suite runs: `node dist/examples/conformance-client.js <url>`
 * with the scenario in MCP_CONFORMANCE_SCENARIO. Built with the public API only. Exits 0 when the
 * scenario's flow completed, 1 on an error, 2 for a scenario it does not know.
 */
import { createClient, type Client } from '../lib/client.js';
import { createStreamableHttpClientTransport } from '../streams/streamable-http-client.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

type Flow = (client: Client) => Promise<void>;

const flows: Record<string, { setup?: (client: Client) => void; run: Flow }> = {
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
  'sse-retry': {
    run: async (client) => {
      await client.listTools();
      // The server ends this call's stream early; the transport waits its `retry` and resumes.
      const result = await client.callTool('test_reconnection', {}, { timeout: 20_000 });
      log(`test_reconnection → ${JSON.stringify(result.content)}`);
    },
  },
};

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
  const client = createClient({ info: { name: 'mcp-actors-conformance-client', version: '0.1.0' } });
  flow.setup?.(client);
  await client.connect(createStreamableHttpClientTransport(url));
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
