/**
 * What a server pays per request when nobody watches: it reads its clock once (the request's
 * start, which `requests$` reports), not for every frame it sends or for an end time no record
 * asks for. A journal or a `requests$` subscriber still gets every time it did.
 */
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import type { RequestRecord } from '../../lib/session/server-request.js';
import { createMemoryPair } from '../../streams/memory.js';

/** A manual clock that counts its reads. */
class CountingClock extends ManualClock {
  reads = 0;
  override now(): number {
    this.reads++;
    return super.now();
  }
}

async function setup(era: 'legacy' | 'modern', serverOptions: { journal?: boolean } = {}) {
  const clock = new CountingClock(1000);
  const mcp = createMcpServer({ info: { name: 'clock-reads', version: '1' }, clock, ...serverOptions });
  mcp.registerTool('echo', { description: 'echoes' }, () => 'ok');
  let started = (): void => {};
  const slowStarted = new Promise<void>((resolve) => (started = resolve));
  mcp.registerTool('slow', { description: 'waits 30 ms of the server clock' }, async () => {
    await new Promise<void>((resolve) => {
      clock.setTimeout(resolve, 30);
      started();
    });
    return 'late';
  });
  const [a, b] = createMemoryPair();
  await mcp.server.connect(a);
  // The client on its own clock: only the server's reads are counted.
  const client = new Client({ era, info: { name: 'spec', version: '1' }, clock: new ManualClock(0) });
  await client.connect(b);
  return { clock, mcp, client, slowStarted };
}

describe('server clock reads per request', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`${era}: one clock read per tools/call when nothing records or watches`, async () => {
      const { clock, client } = await setup(era);
      await client.callTool({ name: 'echo', arguments: {} });
      clock.reads = 0;
      for (let i = 0; i < 20; i++) await client.callTool({ name: 'echo', arguments: {} });
      expect(clock.reads).to.equal(20);
      await client.close();
    });

    it(`${era}: requests$ still gets each request's start and duration`, async () => {
      const { clock, mcp, client, slowStarted } = await setup(era);
      const records: RequestRecord[] = [];
      mcp.requests$.subscribe((r) => records.push(r));
      const call = client.callTool({ name: 'slow', arguments: {} });
      await slowStarted;
      clock.advance(30);
      await call;
      const slow = records.find((r) => r.name === 'slow')!;
      expect([slow.era, slow.outcome, slow.startedAt, slow.durationMs]).to.deep.equal([era, 'answered', 1000, 30]);
      await client.close();
    });
  }
});
