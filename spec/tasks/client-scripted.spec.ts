// Our client against scripted 2025-11-25 task servers saying exactly what a server may: cursors
// that look like anything (each nextCursor goes back byte for byte, never parsed, trimmed or
// re-encoded), and tasks followed without a single status notification (polling on a simulated
// clock, tasks/get going on while tasks/result waits).
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, any> };

/** Cursors a careful client must not touch: spaces, padding, JSON, a number-like string, non-ASCII. */
const CURSORS = [' page 2 ', 'eyJvZmZzZXQiOjR9==', '{"offset":4}', '007', 'seite-drei-ü/+'];

function scripted() {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  const reply = (id: Msg['id'], result: unknown) => void b.send({ jsonrpc: '2.0', id: id!, result } as never);
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    if (m.method === 'initialize') {
      reply(m.id, { protocolVersion: '2025-11-25', capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, serverInfo: { name: 's', version: '1' } });
    }
    if (m.method === 'tasks/list') {
      const at = m.params?.cursor === undefined ? 0 : CURSORS.indexOf(m.params.cursor) + 1;
      const task = { taskId: `t${at}`, status: 'completed', createdAt: '2026-11-27T00:00:00Z', lastUpdatedAt: '2026-11-27T00:00:00Z', ttl: null };
      // An unknown cursor (one the client changed) ends the listing with an error, as a server would.
      if (at === 0 && m.params?.cursor !== undefined) return void b.send({ jsonrpc: '2.0', id: m.id!, error: { code: -32602, message: 'Invalid cursor' } } as never);
      reply(m.id, at < CURSORS.length ? { tasks: [task], nextCursor: CURSORS[at] } : { tasks: [task] });
    }
  });
  return { transport: a, seen };
}

/**
 * A server whose tools/call creates task t-1 (poll every 1 s), whose tasks/get answers
 * `statuses[poll - 1]` (then the last one), and whose tasks/result is answered only once a
 * tasks/get has said completed. It never sends notifications/tasks/status.
 */
function following(clock: ManualClock, statuses: string[]) {
  const [a, b] = createMemoryPair();
  const seen: (Msg & { at: number })[] = [];
  let polls = 0;
  let heldResult: Msg['id'] | undefined;
  let done = false;
  const reply = (id: Msg['id'], result: unknown) => void b.send({ jsonrpc: '2.0', id: id!, result } as never);
  const answerResult = () => {
    if (heldResult === undefined || !done) return;
    reply(heldResult, { content: [{ type: 'text', text: 'all done' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't-1' } } });
    heldResult = undefined;
  };
  const task = (status: string) => ({ taskId: 't-1', status, createdAt: '2026-11-27T00:00:00Z', lastUpdatedAt: '2026-11-27T00:00:00Z', ttl: 60_000, pollInterval: 1_000 });
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push({ ...m, at: clock.now() });
    if (m.method === 'initialize') {
      reply(m.id, { protocolVersion: '2025-11-25', capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } }, serverInfo: { name: 's', version: '1' } });
    }
    if (m.method === 'tools/list') reply(m.id, { tools: [{ name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }] });
    if (m.method === 'tools/call') reply(m.id, { task: task('working') });
    if (m.method === 'tasks/get') {
      const status = statuses[Math.min(polls++, statuses.length - 1)]!;
      done ||= status === 'completed';
      reply(m.id, task(status));
      answerResult();
    }
    if (m.method === 'tasks/result') {
      heldResult = m.id;
      answerResult();
    }
  });
  const at = (method: string) => seen.filter((m) => m.method === method).map((m) => m.at);
  return { transport: a, seen, at };
}

describe('client: following a task without status notifications (2025-11-25, scripted server)', () => {
  it('[TASK-014] [TASK-015] [TASK-045] [TASK-012] polls tasks/get to the end with no notification at all, and goes on polling while tasks/result waits', async () => {
    const clock = new ManualClock(0);
    const s = following(clock, ['working', 'input_required', 'working', 'working', 'completed']);
    const client = new Client({ era: 'legacy', info: { name: 'c', version: '1' }, clock });
    await client.connect(s.transport);
    await client.listTools();
    const handle = await client.callToolAsTask('job', {});
    const result = handle.result();
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setImmediate(r));
      clock.advance(1_000);
    }
    const settled = await Promise.race([result.then(() => true, () => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);
    expect(settled, 'the task was followed to its end by polling alone').to.equal(true);
    expect((await result).content).to.deep.equal([{ type: 'text', text: 'all done' }]);
    // input_required at the second poll opened tasks/result; tasks/get went on until "completed".
    expect(s.at('tasks/result')).to.deep.equal([1_000]);
    expect(s.at('tasks/get')).to.deep.equal([0, 1_000, 2_000, 3_000, 4_000]);
    await client.close();
  });
});

describe('client: task listing cursors (2025-11-25)', () => {
  it('[TASK-049] sends back every nextCursor exactly as the server wrote it, through all pages', async () => {
    const s = scripted();
    const client = new Client({ era: 'legacy', info: { name: 'c', version: '1' } });
    await client.connect(s.transport);
    const tasks = await client.listTasks();
    expect(tasks.map((t) => t.taskId)).to.deep.equal(['t0', 't1', 't2', 't3', 't4', 't5']);
    const sent = s.seen.filter((m) => m.method === 'tasks/list').map((m) => m.params?.cursor);
    expect(sent).to.deep.equal([undefined, ...CURSORS]);
    await client.close();
  });
});
