// Our client following an extension task (io.modelcontextprotocol/tasks) against a scripted
// server that says exactly what a real one may: when to poll (pollIntervalMs, changing on the
// way), the same input request on several polls (eventual consistency), a CreateTaskResult where
// none is allowed. Polling runs on a simulated clock: every tasks/get is stamped with its time.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { MalformedResultTypeError } from '../../lib/client-modern/modern-client-errors.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, any> };
const V = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const DISCOVER = { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {}, prompts: {}, extensions: { [TASKS]: {} } }, ttlMs: 0, cacheScope: 'public' };
const TOOLS = { resultType: 'complete', tools: [{ name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }], ttlMs: 0, cacheScope: 'public' };
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
const task = (status: string, extra: Record<string, unknown> = {}) => ({ taskId: 'task-1', status, createdAt: '2026-11-27T00:00:00Z', ttlMs: 60_000, ...extra });
const ask = (message: string) => ({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } });

/**
 * A server whose tools/call creates task-1 (polled every 5 s) and whose tasks/get answers come
 * from `script` (by poll number, from 1). Every message seen is kept, tasks/get with its clock time.
 */
function scripted(clock: ManualClock, script: (poll: number) => Record<string, unknown>, discover: Record<string, unknown> = DISCOVER) {
  const [a, b] = createMemoryPair();
  const seen: (Msg & { at: number })[] = [];
  let polls = 0;
  const reply = (id: Msg['id'], result: unknown) => void b.send({ jsonrpc: '2.0', id: id!, result } as never);
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push({ ...m, at: clock.now() });
    if (m.method === 'server/discover') reply(m.id, discover);
    if (m.method === 'tools/list') reply(m.id, TOOLS);
    if (m.method === 'tools/call') reply(m.id, { resultType: 'task', ...task('working', { pollIntervalMs: 5_000 }) });
    if (m.method === 'prompts/get') reply(m.id, { resultType: 'task', ...task('working', { pollIntervalMs: 5_000 }) });
    if (m.method === 'tasks/get') reply(m.id, { resultType: 'complete', ...script(++polls) });
    if (m.method === 'tasks/update' || m.method === 'tasks/cancel') reply(m.id, { resultType: 'complete' });
  });
  return { transport: a, seen, gets: () => seen.filter((m) => m.method === 'tasks/get').map((m) => m.at) };
}

describe('client: following an extension task (scripted server, simulated clock)', () => {
  it('[TASK-095] [TASK-096] polls at the pollIntervalMs each answer gives (first one from CreateTaskResult), until the task is terminal, then stops', async () => {
    const clock = new ManualClock(0);
    const s = scripted(clock, (n) => (n < 3 ? task('working', { pollIntervalMs: 5_000 }) : n === 3 ? task('working', { pollIntervalMs: 2_000 }) : task('completed', { result: { content: [{ type: 'text', text: 'done' }] } })));
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    await client.connect(s.transport);
    const handle = await client.callToolAsTask('job', {});
    const result = handle.result();
    await turns();
    // CreateTaskResult said 5 s: nothing before that.
    clock.advance(4_999);
    await turns();
    expect(s.gets()).to.deep.equal([]);
    clock.advance(1);
    await turns();
    expect(s.gets()).to.deep.equal([5_000]);
    for (let i = 0; i < 20; i++) {
      clock.advance(1_000);
      await turns();
    }
    expect((await result).content).to.deep.equal([{ type: 'text', text: 'done' }]);
    // 5 s after creation, then every 5 s, then every 2 s once the server said so; none after "completed".
    expect(s.gets()).to.deep.equal([5_000, 10_000, 15_000, 17_000]);
    expect(handle.current?.status).to.equal('completed');
    await client.close();
  });

  it('[TASK-096] keeps polling through a long run of working answers and never gives up on its own', async () => {
    const clock = new ManualClock(0);
    const s = scripted(clock, (n) => (n < 50 ? task('working', { pollIntervalMs: 1_000 }) : task('completed', { result: { content: [] } })));
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    await client.connect(s.transport);
    const handle = await client.callToolAsTask('job', {});
    const result = handle.result();
    for (let i = 0; i < 60; i++) {
      clock.advance(1_000);
      await turns();
    }
    await result;
    expect(s.gets()).to.have.length(50);
    await client.close();
  });

  it('[TASK-105] [TASK-106] [TASK-108] [TASK-113] answers each input request key once, though polls show it again, and polls on to the end after tasks/update', async () => {
    const clock = new ManualClock(0);
    // The server is slow to apply updates: "first" stays listed one poll after it was answered.
    const s = scripted(clock, (n) =>
      n === 1
        ? task('input_required', { pollIntervalMs: 1_000, inputRequests: { first: ask('First?') } })
        : n === 2
          ? task('input_required', { pollIntervalMs: 1_000, inputRequests: { first: ask('First?'), second: ask('Second?') } })
          : n === 3
            ? task('input_required', { pollIntervalMs: 1_000, inputRequests: { second: ask('Second?') } })
            : n < 6
              ? task('working', { pollIntervalMs: 1_000 })
              : task('completed', { result: { content: [{ type: 'text', text: 'thanks' }] } }),
    );
    const shown: string[] = [];
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    client.onElicitation({
      form: (req) => {
        shown.push(req.message);
        return { action: 'accept', content: { n: shown.length } };
      },
    });
    await client.connect(s.transport);
    const handle = await client.callToolAsTask('job', {});
    const result = handle.result();
    for (let i = 0; i < 20; i++) {
      clock.advance(1_000);
      await turns();
    }
    expect((await result).content).to.deep.equal([{ type: 'text', text: 'thanks' }]);
    expect(shown).to.deep.equal(['First?', 'Second?']);
    const updates = s.seen.filter((m) => m.method === 'tasks/update').map((m) => m.params!.inputResponses);
    expect(updates).to.deep.equal([{ first: { action: 'accept', content: { n: 1 } } }, { second: { action: 'accept', content: { n: 2 } } }]);
    expect(s.gets()).to.have.length(6);
    await client.close();
  });

  it('[TASK-082] reports the life of its tasks on taskEvents$: created, then each status it sees, to the end', async () => {
    const clock = new ManualClock(0);
    const s = scripted(clock, (n) =>
      n === 1
        ? task('input_required', { pollIntervalMs: 1_000, statusMessage: 'Need a number', inputRequests: { k: ask('Number?') } })
        : n === 2
          ? task('working', { pollIntervalMs: 1_000, statusMessage: 'Thanks' })
          : task('completed', { result: { content: [] } }),
    );
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    client.onElicitation({ form: () => ({ action: 'accept', content: { n: 7 } }) });
    await client.connect(s.transport);
    const events: unknown[] = [];
    client.taskEvents$.subscribe((e) => events.push(e));
    const handle = await client.callToolAsTask('job', {});
    const result = handle.result();
    for (let i = 0; i < 10; i++) {
      clock.advance(1_000);
      await turns();
    }
    await result;
    expect(events).to.deep.equal([
      { type: 'created', taskId: 'task-1', name: 'job', status: 'working', at: 0 },
      { type: 'status', taskId: 'task-1', name: 'job', status: 'input_required', statusMessage: 'Need a number', at: 5_000 },
      // Polled again as soon as the answer went out (tasks/update), then at the interval.
      { type: 'status', taskId: 'task-1', name: 'job', status: 'working', statusMessage: 'Thanks', at: 5_000 },
      { type: 'status', taskId: 'task-1', name: 'job', status: 'completed', at: 6_000 },
    ]);
    await client.close();
  });

  it('[TASK-107] [TASK-138] handles an elicitation in inputRequests as a standalone one: the answer is checked against its schema and the form comes back with the errors', async () => {
    const clock = new ManualClock(0);
    const s = scripted(clock, (n) => (n === 1 ? task('input_required', { pollIntervalMs: 1_000, inputRequests: { count: ask('How many?') } }) : task('completed', { result: { content: [] } })));
    const attempts: { attempt: number; errors: number }[] = [];
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    client.onElicitation({
      form: (_req, ctx) => {
        attempts.push({ attempt: ctx.attempt, errors: ctx.errors.length });
        return ctx.attempt === 1 ? { action: 'accept', content: { n: 'three' } } : { action: 'accept', content: { n: 3 } };
      },
    });
    await client.connect(s.transport);
    const handle = await client.callToolAsTask('job', {});
    const result = handle.result();
    for (let i = 0; i < 10; i++) {
      clock.advance(1_000);
      await turns();
    }
    await result;
    expect(attempts).to.deep.equal([
      { attempt: 1, errors: 0 },
      { attempt: 2, errors: 1 },
    ]);
    expect(s.seen.filter((m) => m.method === 'tasks/update').map((m) => m.params!.inputResponses)).to.deep.equal([{ count: { action: 'accept', content: { n: 3 } } }]);
    await client.close();
  });

  it('[TASK-116] cancels a task with tasks/cancel naming it, never with notifications/cancelled, and stops polling once it reads cancelled', async () => {
    const clock = new ManualClock(0);
    let cancelled = false;
    const s = scripted(clock, () => (cancelled ? task('cancelled') : task('working', { pollIntervalMs: 1_000 })));
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    await client.connect(s.transport);
    const handle = await client.callToolAsTask('job', {});
    const result = handle.result().then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    clock.advance(5_000);
    await turns();
    cancelled = true;
    expect((await handle.cancel()).status).to.equal('cancelled');
    clock.advance(5_000);
    await turns();
    expect(await result).to.match(/was cancelled/);
    const cancels = s.seen.filter((m) => m.method === 'tasks/cancel' || m.method === 'notifications/cancelled');
    expect(cancels.map((m) => [m.method, m.params?.taskId])).to.deep.equal([['tasks/cancel', 'task-1']]);
    const polls = s.gets().length;
    clock.advance(60_000);
    await turns();
    expect(s.gets()).to.have.length(polls);
    await client.close();
  });

  it('[TASK-086] refuses a CreateTaskResult to a request that does not run as a task (prompts/get) as an invalid response', async () => {
    const clock = new ManualClock(0);
    const s = scripted(clock, () => task('working'));
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    await client.connect(s.transport);
    const e = await client.getPrompt('p').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).to.be.instanceOf(MalformedResultTypeError);
    expect((e as Error).message).to.match(/prompts\/get with a CreateTaskResult .* an invalid response/);
    clock.advance(60_000);
    await turns();
    expect(s.gets()).to.deep.equal([]);
    await client.close();
  });

  it('[BASE-065] counts "task" among the result types only when the tasks extension is advertised: without it a CreateTaskResult is an invalid response, and nothing is polled', async () => {
    const clock = new ManualClock(0);
    const s = scripted(clock, () => task('completed'), { ...DISCOVER, capabilities: { tools: {}, prompts: {} } });
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    await client.connect(s.transport);
    const e = await client.callTool('job').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).to.be.instanceOf(MalformedResultTypeError);
    clock.advance(60_000);
    await turns();
    expect(s.gets()).to.deep.equal([]);
    // The same answer where the server advertises the extension is a task, followed to its end.
    const advertised = scripted(clock, () => task('completed', { result: { content: [{ type: 'text', text: 'done' }] } }));
    const other = new Client({ info: { name: 'c', version: '1' }, clock });
    await other.connect(advertised.transport);
    const pending = other.callTool('job');
    await turns();
    clock.advance(5_000);
    expect(await pending).to.deep.include({ content: [{ type: 'text', text: 'done' }] });
    expect(advertised.gets()).to.have.length(1);
    await client.close();
    await other.close();
  });
});
