// The server's built-in interceptors: logging, rateLimitPerCaller (server clock, -32090 with
// retryAfterMs), redactArguments (what later stages see, not the handler), in both eras over stdio
// and HTTP. The client's retry() is in spec/client-features/interceptors/retry.spec.ts.
import { expect } from 'chai';
import { ManualClock } from '../../../lib/clock.js';
import { McpError } from '../../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../../lib/mcp-server.js';
import { logging, type InterceptLogEntry } from '../../../lib/server-features/interceptors/request-logging.js';
import { RATE_LIMITED, rateLimitPerCaller } from '../../../lib/server-features/interceptors/rate-limit-per-caller.js';
import { redactArguments } from '../../../lib/server-features/interceptors/redact-arguments.js';
import { createMcpFetchHandler } from '../../../lib/server-bindings/fetch-handler.js';
import { MATRIX, connect, type Connected } from './harness.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text).join('|');

function server(clock?: ManualClock): { mcp: McpServer; got: unknown[] } {
  const mcp = createMcpServer({ info: { name: 'builtins', version: '1' }, ...(clock && { clock }) });
  const got: unknown[] = [];
  mcp.registerTool('login', { description: 'logs in' }, async (a: Record<string, unknown>) => {
    got.push(a);
    return 'ok';
  });
  return { mcp, got };
}

for (const { era, wire } of MATRIX) {
  describe(`built-in interceptors: ${era} era over ${wire}`, () => {
    let c: Connected[] = [];
    afterEach(async () => {
      for (const x of c) await x.close();
      c = [];
    });

    it('redactArguments hides the named arguments from logging registered after it; the handler gets the real values', async () => {
      const clock = new ManualClock(5_000);
      const { mcp, got } = server(clock);
      const lines: InterceptLogEntry[] = [];
      mcp.use(redactArguments(['password', 'token']));
      mcp.use(logging((e) => lines.push(e), { withParams: true }));
      c.push(await connect(mcp, era, wire));
      const args = { user: 'ada', password: 'hunter2', nested: { token: 't-1', keep: 1 } };
      expect(textOf(await c[0]!.client.callTool({ name: 'login', arguments: args }))).to.equal('ok');
      expect(got).to.deep.equal([args]);
      const entry = lines.find((l) => l.method === 'tools/call')!;
      expect(entry.params!.arguments).to.deep.equal({ user: 'ada', password: '[redacted]', nested: { token: '[redacted]', keep: 1 } });
      expect([entry.kind, entry.target, entry.era, entry.outcome, entry.durationMs]).to.deep.equal(['request', 'login', era, 'answered', 0]);
      expect(entry.caller).to.equal(era === 'legacy' ? 'session-1' : 'anonymous');
      expect(JSON.stringify(lines)).to.not.contain('hunter2').and.not.contain('t-1');
    });

    it('logging writes failures with their code to logger.error, and a logger that throws fails nothing', async () => {
      const { mcp } = server(new ManualClock(0));
      const errors: string[] = [];
      mcp.use(logging({ info: () => { throw new Error('disk full'); }, error: (line) => void errors.push(line) }));
      c.push(await connect(mcp, era, wire));
      expect(textOf(await c[0]!.client.callTool({ name: 'login', arguments: {} }))).to.equal('ok');
      mcp.server.onRequest('x/refuse', () => {
        throw new McpError(-32602, 'bad input');
      });
      await c[0]!.client.request('x/refuse', {}).catch(() => {});
      expect(errors).to.deep.equal([`x/refuse from ${era === 'legacy' ? 'session-1' : 'anonymous'} (${era}): failed -32602 bad input in 0 ms`]);
    });

    it('rateLimitPerCaller refuses the request over the limit with -32090 and retryAfterMs on the server clock, then lets it through', async () => {
      const clock = new ManualClock(0);
      const { mcp } = server(clock);
      mcp.use(rateLimitPerCaller({ perMinute: 2 }));
      c.push(await connect(mcp, era, wire));
      const call = () => c[0]!.client.callTool({ name: 'login', arguments: {} });
      await call();
      clock.advance(10_000);
      await call();
      const e = await call().catch((x: unknown) => x);
      expect((e as McpError).code).to.equal(RATE_LIMITED);
      expect((e as McpError).data).to.deep.equal({ retryAfterMs: 50_000, limit: 2 });
      clock.advance(50_000);
      expect(textOf(await call())).to.equal('ok');
    });
  });
}

describe('built-in interceptors: per caller', () => {
  it('rateLimitPerCaller counts each authenticated principal apart (2026-07-28 over the fetch handler)', async () => {
    const clock = new ManualClock(0);
    const { mcp } = server(clock);
    mcp.use(rateLimitPerCaller({ perMinute: 1 }));
    const handler = createMcpFetchHandler(mcp, { authenticate: (req) => ({ ok: true, authInfo: { sub: String(req.headers['x-user'] ?? 'nobody') } }) });
    const V = '2026-07-28';
    const call = async (user: string, id: number) => {
      const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'login', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } } };
      const res = await handler(new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: { 'x-user': user, 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'login', accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1:8080' },
        body: JSON.stringify(body),
      }));
      return (await res.json()) as { result?: unknown; error?: { code: number } };
    };
    expect((await call('ada', 1)).result).to.not.equal(undefined);
    expect((await call('bo', 2)).result).to.not.equal(undefined);
    expect((await call('ada', 3)).error?.code).to.equal(RATE_LIMITED);
    await mcp.close();
  });

});
