// Our client listing tasks (2025-11-25) from a scripted server whose cursors look like anything a
// server may use: each nextCursor goes back byte for byte, never parsed, trimmed or re-encoded.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
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
