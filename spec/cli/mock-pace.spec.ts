// `replay --as server` paces a request's frames as recorded (by default), on the mock's clock:
// progress notifications come as far apart as they did, each before the answer.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { parseJournalText } from '../../lib/cli/journal-file.js';
import { createMockServer } from '../../lib/cli/mock-server.js';
import { Normalizer } from '../../lib/cli/normalize.js';
import { readExchanges } from '../../lib/cli/recorded-exchanges.js';
import { createMemoryPair } from '../../streams/memory.js';

/** A server-side recording: a tool call that reported progress at +100 and +200 ms and answered at +300 ms. */
function recording(): string {
  const lines: unknown[] = [
    { format: 'mcp-actors/journal', version: 1, role: 'server', startedAt: 0 },
    { seq: 1, t: 0, kind: 'in', frame: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } } },
    { seq: 2, t: 1, kind: 'out', frame: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'paced', version: '1.0.0' } } } },
    { seq: 3, t: 2, kind: 'in', frame: { jsonrpc: '2.0', method: 'notifications/initialized' } },
    { seq: 4, t: 1000, kind: 'in', frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: { progressToken: 'p' } } } },
    { seq: 5, t: 1100, kind: 'out', frame: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 2 } } },
    { seq: 6, t: 1200, kind: 'out', frame: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 2, total: 2 } } },
    { seq: 7, t: 1300, kind: 'out', frame: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'counted' }] } } },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** Let frames in flight through the memory pair and the session (several ticks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('replay --as server: the recorded pace', () => {
  for (const realtime of [undefined, true] as const) {
    it(`progress comes at the recorded offsets on the mock's clock, the answer after it (${realtime === undefined ? 'by default' : 'realtime: true'})`, async () => {
      const clock = new ManualClock();
      const server = createMockServer(readExchanges(parseJournalText(recording(), 'paced.jsonl')), new Normalizer(), { clock, ...(realtime !== undefined && { realtime }) });
      const [a, b] = createMemoryPair();
      await server.connect(a);
      const client = new Client({ info: { name: 'spec', version: '1' }, era: 'legacy' });
      await client.connect(b);
      const seen: string[] = [];
      const call = client.callTool('count', {}, { onprogress: (p) => void seen.push(`progress ${p.progress}`) }).then((r) => void seen.push(`answer ${(r.content[0] as { text: string }).text}`));
      await settle();
      expect(seen).to.deep.equal([]);
      clock.advance(99);
      await settle();
      expect(seen).to.deep.equal([]);
      clock.advance(1);
      await settle();
      expect(seen).to.deep.equal(['progress 1']);
      clock.advance(100);
      await settle();
      expect(seen).to.deep.equal(['progress 1', 'progress 2']);
      clock.advance(100);
      await call;
      expect(seen).to.deep.equal(['progress 1', 'progress 2', 'answer counted']);
      await client.close();
      await server.close();
    });
  }

  it('realtime: false sends it all at once, the clock never consulted', async () => {
    const clock = new ManualClock();
    const server = createMockServer(readExchanges(parseJournalText(recording(), 'paced.jsonl')), new Normalizer(), { clock, realtime: false });
    const [a, b] = createMemoryPair();
    await server.connect(a);
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'legacy' });
    await client.connect(b);
    const progress: number[] = [];
    const r = await client.callTool('count', {}, { onprogress: (p) => void progress.push(p.progress) });
    expect((r.content[0] as { text: string }).text).to.equal('counted');
    expect(progress).to.deep.equal([1, 2]);
    expect(clock.pending).to.equal(0);
    await client.close();
    await server.close();
  });
});
