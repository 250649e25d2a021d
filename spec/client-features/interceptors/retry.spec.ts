// The client's built-in retry() interceptor, on the client clock: a rate-limited call (the
// server's rateLimitPerCaller, -32090 with retryAfterMs) is sent again after the wait the server
// asked for, and a transport failure after its own back-off; attempts bound both. Both eras, stdio
// and HTTP, through the interceptors' harness.
import { expect } from 'chai';
import { ManualClock } from '../../../lib/clock.js';
import { TransportError } from '../../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../../lib/mcp-server.js';
import { rateLimitPerCaller } from '../../../lib/server-features/interceptors/rate-limit-per-caller.js';
import { retry } from '../../../lib/client-features/interceptors/retry.js';
import { MATRIX, connect, until, type Connected } from '../../server-features/interceptors/harness.js';

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
  describe(`client interceptors: retry() in the ${era} era over ${wire}`, () => {
    let c: Connected[] = [];
    afterEach(async () => {
      for (const x of c) await x.close();
      c = [];
    });

    it('retry() on the client clock: a rate-limited call is sent again after retryAfterMs and succeeds; attempts bound it', async () => {
      // The server's clock and the client's, moved together (the server's has timers of its own).
      const serverClock = new ManualClock(0);
      const clock = new ManualClock(0);
      const tick = (ms: number) => {
        serverClock.advance(ms);
        clock.advance(ms);
      };
      const { mcp, got } = server(serverClock);
      mcp.use(rateLimitPerCaller({ perMinute: 1 }));
      c.push(await connect(mcp, era, wire, { clock, timeout: 600_000 }));
      const client = c[0]!.client;
      client.use(retry({ attempts: 2 }));
      await client.callTool({ name: 'login', arguments: { n: 1 } });
      const second = client.callTool({ name: 'login', arguments: { n: 2 } });
      await until(() => clock.nextDue() === 60_000, 'the wait the refusal asked for');
      tick(60_000);
      expect(textOf(await second)).to.equal('ok');
      expect(got).to.deep.equal([{ n: 1 }, { n: 2 }]);
      // The wait is the server's retryAfterMs (60 s from this refusal), not the default back-off.
      const third = client.callTool({ name: 'login', arguments: { n: 3 } });
      await until(() => clock.nextDue() === 120_000, 'the next wait');
      tick(30_000);
      expect(await Promise.race([third.then(() => 'answered'), new Promise((r) => setTimeout(() => r('still waiting'), 50))])).to.equal('still waiting');
      tick(30_000);
      expect(textOf(await third)).to.equal('ok');
      expect(got).to.have.length(3);
    });
  });
}

describe('client interceptors: retry() after a transport failure', () => {
  it('retry() sends again after a transport failure, waiting its back-off on the client clock', async () => {
    const clock = new ManualClock(0);
    const { mcp, got } = server();
    const c = await connect(mcp, 'legacy', 'stdio', { clock, timeout: 600_000 });
    let failures = 1;
    c.client.use(retry({ attempts: 3, delayMs: 200 }));
    c.client.use(async function flakyLink(_req, next) {
      if (failures-- > 0) throw new TransportError('socket hang up');
      return next();
    });
    const p = c.client.callTool({ name: 'login', arguments: { n: 1 } });
    await until(() => clock.pending > 0 && clock.nextDue() === 200, 'the back-off scheduled');
    expect(got).to.deep.equal([]);
    clock.advance(200);
    expect(textOf(await p)).to.equal('ok');
    expect(got).to.deep.equal([{ n: 1 }]);
    // attempts bounds it: three failures in a row reach the caller after two back-offs (200, 400 ms).
    failures = 3;
    const q = c.client.callTool({ name: 'login', arguments: { n: 2 } }).catch((x: unknown) => x);
    await until(() => clock.pending > 0 && clock.nextDue() === 400, 'the first back-off');
    clock.advance(200);
    await until(() => clock.pending > 0 && clock.nextDue() === 800, 'the second back-off');
    clock.advance(400);
    expect(((await q) as Error).message).to.equal('socket hang up');
    expect(got).to.have.length(1);
    await c.close();
  });
});
