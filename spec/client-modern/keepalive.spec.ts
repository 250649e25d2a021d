// The client's keep-alive in each era, on the simulated clock: the session era pings; 2026-07-28,
// which removed `ping`, checks the server with `server/discover` as `client.ping()` does, waits
// for a quiet interval as the session era does (a talking server is not probed), and a probe left
// unanswered fails the client as a lost connection.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { ManualClock } from '../../lib/clock.js';
import type { Diagnostic } from '../../lib/session/session.js';
import { Server } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

type Msg = { id?: number; method?: string; params?: Record<string, any> };
const V = '2026-07-28';

/** A 2026-07-28 server on a memory pair that answers discover and tools/list (while `answering`), seeing every frame. */
function modernServer() {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  const state = { answering: true };
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    if (!state.answering || m.id === undefined) return;
    if (m.method === 'server/discover') {
      void b.send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {} }, serverInfo: SERVER_INFO, ttlMs: 0, cacheScope: 'public' } } as never);
    } else if (m.method === 'tools/list') {
      void b.send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', tools: [] } } as never);
    }
  });
  const sent = (method: string) => seen.filter((m) => m.method === method).length;
  return { transport: a, seen, state, sent };
}

describe('client keep-alive in both eras', () => {
  it('[PING-002] 2026-07-28: each quiet interval sends server/discover (never ping, which that revision removed)', async () => {
    const clock = new ManualClock();
    const s = modernServer();
    const client = new Client({ era: 'auto', info: CLIENT_INFO, clock, keepAlive: { interval: 1000 } });
    await client.connect(s.transport);
    expect(client.era).to.equal('modern');
    const probes = s.sent('server/discover');
    // (The era probe on a byte stream sends one ping beside server/discover, by design: not the keep-alive.)
    const pings = s.sent('ping');
    for (let i = 1; i <= 3; i++) {
      clock.advance(1000);
      await settle();
      expect(s.sent('server/discover'), `after ${i} s`).to.equal(probes + i);
    }
    expect(s.sent('ping')).to.equal(pings);
    expect(client.currentPhase).to.equal('operating');
    await client.close();
  });

  it('[PING-005] 2026-07-28: a server that is talking is not probed; the probe comes one quiet interval after the last frame', async () => {
    const clock = new ManualClock();
    const s = modernServer();
    const client = new Client({ era: 'auto', info: CLIENT_INFO, clock, keepAlive: { interval: 1000 } });
    await client.connect(s.transport);
    const probes = s.sent('server/discover');
    for (let i = 0; i < 10; i++) {
      clock.advance(400);
      await client.request('tools/list');
    }
    expect(s.sent('server/discover')).to.equal(probes);
    clock.advance(999);
    await settle();
    expect(s.sent('server/discover')).to.equal(probes);
    clock.advance(1);
    await settle();
    expect(s.sent('server/discover')).to.equal(probes + 1);
    await client.close();
  });

  it('[PING-006] 2026-07-28: a probe left unanswered fails the client as a lost connection and says so', async () => {
    const clock = new ManualClock();
    const s = modernServer();
    const client = new Client({ era: 'auto', info: CLIENT_INFO, clock, keepAlive: { interval: 1000, timeout: 500 } });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    await client.connect(s.transport);
    s.state.answering = false;
    clock.advance(1000);
    await settle();
    clock.advance(500);
    await settle();
    expect(client.currentPhase).to.equal('failed');
    expect(diags.map((d) => d.kind)).to.include('ping-failed');
    const err = await client.listTools().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).to.match(/stopped answering pings/);
  });

  it('[PING-002] the session era sends ping (and no server/discover) on the same schedule', async () => {
    const clock = new ManualClock();
    const [a, b] = createMemoryPair();
    await new Server({ info: SERVER_INFO, clock }).connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, journal: true, keepAlive: { interval: 1000 } });
    await client.connect(b);
    clock.advance(1000);
    await settle();
    clock.advance(1000);
    await settle();
    const out = client.journal!.entries.filter((e) => e.kind === 'out').map((e: any) => e.frame.method as string | undefined);
    expect(out.filter((m) => m === 'ping')).to.have.length(2);
    expect(out.filter((m) => m === 'server/discover')).to.have.length(0);
    await client.close();
  });
});
