// How the gateway knows an upstream sent garbage: from the upstream client's `invalid-frame`
// diagnostics, which both eras report, not by watching its frames$ (an event per frame of every
// call, and on a legacy session a journal stamp per frame). In memory, on the simulated clock.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { UpstreamFaultError } from '../../lib/errors.js';
import type { Host } from '../../lib/host/host.js';
import { UpstreamFaults } from '../../lib/gateway/upstream-fault.js';
import type { Diagnostic } from '../../lib/session/session.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, settle } from '../helpers/raw-peer.js';

const V = '2026-07-28';

/** A client of `era` on a raw peer that answered the era's handshake. */
async function upstream(era: 'modern' | 'legacy', clock: ManualClock) {
  const peer = new RawPeer();
  const client = new Client({ era, info: CLIENT_INFO, clock, timeout: 1_000 });
  const connecting = client.connect(peer.transport);
  const hello = await peer.next((f) => f.method === (era === 'modern' ? 'server/discover' : 'initialize'));
  peer.send(
    era === 'modern'
      ? { jsonrpc: '2.0', id: hello.id, result: { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {} }, serverInfo: SERVER_INFO } }
      : { jsonrpc: '2.0', id: hello.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO } },
  );
  await connecting;
  return { peer, client };
}

/** The host the guard asks for upstream `name`'s client. */
const hostOf = (name: string, client: Client) => ({ state: { [name]: { phase: 'ready' } }, client: () => client }) as unknown as Host;

describe('gateway: an upstream that sends garbage, told by its client\'s diagnostics', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`${era}: a call that timed out after a line that is not JSON-RPC fails "garbage", saying why it was unreadable; without one, "timedOut"`, async () => {
      const clock = new ManualClock(0);
      const { peer, client } = await upstream(era, clock);
      const faults = new UpstreamFaults();
      faults.watch(client);
      const host = hostOf('up', client);
      const call = (name: string) => faults.guard(host, 'up', 'tools/call', () => client.callTool(name, {})).then(() => undefined, (e: unknown) => e);

      const quiet = call('hang');
      await settle();
      clock.advance(1_000);
      const timedOut = (await quiet) as UpstreamFaultError;
      expect(timedOut).to.be.instanceOf(UpstreamFaultError);
      expect(timedOut.fault).to.equal('timedOut');

      const noisy = call('garbage');
      await settle();
      peer.send('}}} this is not json {{{');
      await settle();
      clock.advance(1_000);
      const garbage = (await noisy) as UpstreamFaultError;
      expect(garbage).to.be.instanceOf(UpstreamFaultError);
      expect(garbage.fault).to.equal('garbage');
      expect(garbage.message).to.match(/Upstream "up" sent something that is not JSON-RPC \(Parse error: invalid JSON \(.+\)\) and no answer within 1000 ms/);
      await client.close();
    });
  }

  it('watching an upstream does not subscribe to its frames', async () => {
    const clock = new ManualClock(0);
    const { client } = await upstream('legacy', clock);
    Object.defineProperty(client, 'frames$', {
      get() {
        throw new Error('frames$ read');
      },
    });
    expect(() => new UpstreamFaults().watch(client)).not.to.throw();
    await client.close();
  });

  it('a 2026-07-28 client reports each line that is not a JSON-RPC message as invalid-frame, and goes on', async () => {
    const clock = new ManualClock(0);
    const { peer, client } = await upstream('modern', clock);
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    const call = client.callTool('echo', {});
    const req = await peer.next((f) => f.method === 'tools/call');
    peer.send('not json');
    peer.send('[1, 2]');
    peer.send('42');
    peer.send(`${'['.repeat(200)}${']'.repeat(200)}`);
    peer.send({ jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } });
    expect((await call).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    expect(diags.map((d) => d.kind)).to.deep.equal(['invalid-frame', 'invalid-frame', 'invalid-frame', 'invalid-frame']);
    expect(diags[0]!.message).to.match(/^Parse error: invalid JSON/);
    expect(diags[1]!.message).to.match(/must be an object, got array/);
    expect(diags[2]!.message).to.match(/must be an object, got number/);
    expect(diags[3]!.message).to.match(/nests deeper than/);
    await client.close();
  });
});
