// TASK-054: requestors SHOULD NOT rely on cancelled tasks being retained. Against a scripted
// 2025-11-25 server that forgets a task the moment it is cancelled (as a receiver may), our task
// handle takes what it needs from the tasks/cancel answer: result() rejects as cancelled, without
// asking the server about the task again, whether it was called before or after cancel().
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, any> };
const V = '2025-11-25';
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
const task = (status: string) => ({ taskId: 'task-1', status, createdAt: '2026-11-27T00:00:00Z', lastUpdatedAt: '2026-11-27T00:00:00Z', ttl: 60_000, pollInterval: 1_000 });

/** A 2025-11-25 server with one task tool; after tasks/cancel it knows nothing of task-1. */
function forgetful() {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  let forgotten = false;
  const reply = (id: Msg['id'], result: unknown) => void b.send({ jsonrpc: '2.0', id: id!, result } as never);
  const fail = (id: Msg['id']) => void b.send({ jsonrpc: '2.0', id: id!, error: { code: -32602, message: 'Failed to retrieve task: Task not found' } } as never);
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    if (m.method === 'initialize') reply(m.id, { protocolVersion: V, capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } }, serverInfo: { name: 'forgetful', version: '1' } });
    if (m.method === 'tools/list') reply(m.id, { tools: [{ name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }] });
    if (m.method === 'tools/call') reply(m.id, { task: task('working') });
    if (m.method === 'tasks/get' || m.method === 'tasks/result') return forgotten ? fail(m.id) : m.method === 'tasks/get' ? reply(m.id, task('working')) : undefined;
    if (m.method === 'tasks/cancel') {
      forgotten = true;
      reply(m.id, task('cancelled'));
    }
  });
  const after = (method: string) => seen.slice(seen.findIndex((m) => m.method === 'tasks/cancel') + 1).filter((m) => m.method === method).length;
  return { transport: a, seen, after };
}

describe('client: a cancelled task is not looked up again', () => {
  for (const when of ['after', 'before'] as const) {
    it(`[TASK-054] result() asked ${when} cancel() rejects as cancelled without another tasks/get or tasks/result`, async () => {
      const clock = new ManualClock(0);
      const s = forgetful();
      const client = new Client({ era: 'legacy', info: { name: 'c', version: '1' }, clock });
      await client.connect(s.transport);
      const handle = await client.callToolAsTask('job', {});
      let early: Promise<unknown> | undefined;
      if (when === 'before') {
        early = handle.result().catch((e: unknown) => e);
        await turns();
      }
      expect((await handle.cancel()).status).to.equal('cancelled');
      const late = early ?? handle.result().catch((e: unknown) => e);
      clock.advance(5_000);
      await turns();
      const e = (await late) as Error;
      expect(e).to.be.instanceOf(Error);
      expect(e.message).to.match(/was cancelled/);
      expect(s.after('tasks/get') + s.after('tasks/result')).to.equal(0);
      expect(handle.current?.status).to.equal('cancelled');
      await client.close();
    });
  }
});
