// A server's journal of 2026-07-28 requests records the timers a request fires (its progress
// flush) as entries, and replay fires each at its place in the sequence, not merely by time
// (issue 26): a timer and an input in the same millisecond keep their recorded order.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../lib/clock.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../../lib/jsonrpc/message.js';
import { Journal } from '../../lib/journal/journal.js';
import { replay } from '../../lib/journal/replay.js';
import { runInProcess } from '../cli/helpers.js';
import progressServer from '../fixtures/journal/progress-factory.js';
import { settle } from '../helpers/raw-peer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  progressToken: 'p',
};
const CALL: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', _meta: META } };

const factory = progressServer;

/**
 * The call served on a simulated clock, the client going away at 1100 (when the flush is due):
 * `goneFirst` sets the client's timer before the request starts, so it runs first of the two.
 */
async function record(goneFirst: boolean): Promise<{ journal: Journal; progress: unknown[] }> {
  const clock = new ManualClock(1_000);
  const server = factory({ clock });
  const ac = new AbortController();
  const sent: JsonRpcNotification[] = [];
  const gone = () => clock.setTimeout(() => ac.abort('gone'), 100, 'client-gone');
  if (goneFirst) gone();
  void server.core.answer(CALL, { notify: (f) => sent.push(f), signal: ac.signal }).catch(() => {});
  if (!goneFirst) gone();
  await settle();
  clock.advance(100);
  await settle();
  return { journal: server.journal!, progress: sent.map((f) => f.params?.progress) };
}

const shape = (journal: Journal) => journal.entries.map((e) => `${e.kind}@${e.t}${e.kind === 'timer' ? ` ${e.name} rq ${String(e.rq)}` : ''}`);

describe('server journal: timers as entries', () => {
  it('the client goes away in the millisecond the progress flush is due, before it: the replay sends no flush either', async () => {
    const { journal, progress } = await record(true);
    expect(progress).to.deep.equal([1]);
    expect(journal.header.timers).to.deep.equal(['progress:']);
    expect(shape(journal)).to.deep.equal(['in@1000', 'out@1000', 'cancel@1100', 'state@1100']);
    // Replayed from its saved text: the flush's timer is due at the cancel's millisecond; fired by time it would go first.
    const again = await replay(journal.toJSONL(), { server: factory });
    expect(again.firstDifference).to.equal(undefined);
    expect(again.matches).to.equal(true);
    expect(again.outbound.map((f) => (f as JsonRpcNotification).params?.progress)).to.deep.equal([1]);
  });

  it('the flush fires first in that millisecond: a timer entry with its request, and the replay fires it there', async () => {
    const { journal, progress } = await record(false);
    expect(progress).to.deep.equal([1, 2]);
    expect(shape(journal)).to.deep.equal(['in@1000', 'out@1000', 'timer@1100 progress:1 rq 1', 'out@1100', 'cancel@1100', 'state@1100']);
    const again = await replay(journal.toJSONL(), { server: factory });
    expect(again.firstDifference).to.equal(undefined);
    expect(again.matches).to.equal(true);
    expect(again.outbound.map((f) => (f as JsonRpcNotification).params?.progress)).to.deep.equal([1, 2]);
  });


  it('replay --check --factory keeps the order too (the header names the timers it holds); inspect names the timer\'s request', async () => {
    const { journal } = await record(true);
    const dir = mkdtempSync(join(tmpdir(), 'server-journal-timers-'));
    try {
      const file = join(dir, 'server.jsonl');
      writeFileSync(file, journal.toJSONL());
      const run = await runInProcess(['replay', file, '--check', '--factory', fileURLToPath(new URL('../fixtures/journal/progress-factory.ts', import.meta.url)), '--no-color']);
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(run.stdout).to.include('frames and request states identical');
      const { journal: fired } = await record(false);
      writeFileSync(file, fired.toJSONL());
      const inspect = await runInProcess(['inspect', file, '--no-color']);
      expect(inspect.code, inspect.stderr).to.equal(0);
      expect(inspect.stdout).to.match(/timer +progress:1 for request 1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
