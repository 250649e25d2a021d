// Authorization over stdio: no OAuth flow; the server takes its credentials from the environment
// the client gives it (`env`). The HTTP transports' `auth` option is not a stdio option.
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import type { HttpClientAuth } from '../../lib/auth/oauth-client.js';
import { createStdioClientTransport, type StdioClientTransport, type StdioClientTransportOptions } from '../../streams/stdio-client.js';

// A server that answers every request with the credential it finds in its environment.
const SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  const result = { apiKey: process.env.MCP_SPEC_API_KEY ?? null, authorizationVar: process.env.AUTHORIZATION ?? null };
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }) + '\\n');
});
rl.on('close', () => process.exit(0));
`;

// Compile-time: a stdio transport takes no `auth` (tsc fails if it ever does).
type NoAuthOnStdio = 'auth' extends keyof StdioClientTransportOptions ? false : true;
const noAuthOnStdio: NoAuthOnStdio = true;
function stdioOptionsWithAuth(auth: HttpClientAuth): StdioClientTransportOptions {
  return {
    command: process.execPath,
    // @ts-expect-error the OAuth `auth` option is for HTTP transports only
    auth,
  };
}
// Type-level only: nothing to run.
void noAuthOnStdio;
void stdioOptionsWithAuth;

describe('stdio transport credentials', function () {
  // Spawning node takes a while on a busy machine; nothing here waits on a timer.
  this.timeout(20_000);
  let transport: StdioClientTransport | undefined;

  afterEach(async () => {
    await transport?.close().catch(() => {});
    transport = undefined;
  });

  async function credentialsSeen(options: Partial<StdioClientTransportOptions>): Promise<{ apiKey: string | null; authorizationVar: string | null }> {
    transport = createStdioClientTransport({ command: process.execPath, args: ['-e', SERVER], stderr: 'pipe', ...options });
    await transport.start();
    const answer = firstValueFrom(transport.inbound$.pipe(filter((f): f is string => typeof f === 'string' && f.startsWith('{'))));
    transport.send({ jsonrpc: '2.0', id: 1, method: 'whoami', params: {} });
    const result = (JSON.parse(await answer) as { result: { apiKey: string | null; authorizationVar: string | null } }).result;
    await transport.close();
    return result;
  }

  it('[AUTH-002] [AUTH-057] the server gets its credential from the environment the client passes (`env`), not from an OAuth flow', async () => {
    expect(await credentialsSeen({ env: { MCP_SPEC_API_KEY: 'stdio-secret-123' } })).to.deep.equal({ apiKey: 'stdio-secret-123', authorizationVar: null });
    // Without `env` the server has no credential: nothing is inherited by default, nothing is negotiated.
    process.env.MCP_SPEC_API_KEY = 'parent-only';
    try {
      expect((await credentialsSeen({})).apiKey).to.equal(null);
    } finally {
      delete process.env.MCP_SPEC_API_KEY;
    }
  });
});
