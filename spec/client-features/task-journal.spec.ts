// A client's task journal: the tasks it started are written down until it sees them end, so a
// client that crashed (closed without following its task) is replaced by one that finds the task
// in the journal and follows it to its result. Against our McpServer (2026-07-28 tasks extension)
// over memory transports; polling on a simulated clock; the journal in a real file.
import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { fileTaskJournal } from '../../lib/client-features/file-task-journal.js';
import { memoryTaskJournal, type TaskJournal } from '../../lib/client-features/task-journal.js';
import type { ClientWarning } from '../../lib/client-options.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text).join('');
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('client: the task journal', () => {
  let dir: string;
  let mcp: McpServer;
  let open: () => void;
  const clients: Client[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'task-journal-'));
    const gate = new Promise<void>((r) => (open = r));
    mcp = createMcpServer({ info: { name: 'tasks', version: '1.0.0' } });
    mcp.registerTool('build', { execution: { taskSupport: 'optional' } }, async (args) => {
      await gate;
      return `built ${String(args['target'])}`;
    });
  });
  afterEach(async () => {
    open();
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    await mcp.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function connect(clock: ManualClock, taskJournal: TaskJournal): Promise<Client> {
    const [a, b] = createMemoryPair();
    await mcp.connect(b);
    const client = new Client({ info: { name: 'c', version: '1' }, clock, taskJournal });
    await client.connect(a);
    clients.push(client);
    return client;
  }

  /** Advance the poll clock until `p` settles (bounded). */
  async function poll<T>(clock: ManualClock, p: Promise<T>): Promise<T> {
    let done = false;
    void p.then(
      () => (done = true),
      () => (done = true),
    );
    for (let i = 0; i < 100 && !done; i++) {
      await turns();
      clock.advance(1_000);
    }
    return p;
  }

  it('[TASK-097] a task started before a crash is in the journal file, and a new client follows it to its result; then it is gone', async () => {
    const path = join(dir, 'tasks.json');
    const clock = new ManualClock(1_000);
    const first = await connect(clock, fileTaskJournal(path));
    const handle = await first.callToolAsTask('build', { target: 'app' });
    await turns();
    expect(await first.unfinishedTasks()).to.deep.equal([{ taskId: handle.taskId, method: 'tools/call', name: 'build', createdAt: 1_000 }]);
    expect((await stat(path)).mode & 0o777).to.equal(0o600);
    // The first client goes away without following its task.
    await first.close();

    const second = await connect(clock, fileTaskJournal(path));
    const [entry] = await second.unfinishedTasks();
    expect(entry!.taskId).to.equal(handle.taskId);
    open();
    expect(textOf(await poll(clock, second.task(entry!.taskId).result()))).to.equal('built app');
    // The entry is removed on disk after the result: wait for it (real time, bounded).
    for (const deadline = Date.now() + 5_000; (await second.unfinishedTasks()).length > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
    expect(await second.unfinishedTasks()).to.deep.equal([]);
    expect(JSON.parse(await readFile(path, 'utf8'))).to.deep.equal({ version: 1, tasks: [] });
  });

  it('[TASK-083] [TASK-097] callTool writes down the task it follows and removes it once the result is in; a stopped follow keeps it', async () => {
    const clock = new ManualClock(0);
    const journal = memoryTaskJournal();
    const client = await connect(clock, journal);
    const stop = new AbortController();
    const stopped = client.callTool('build', { target: 'lib' }, { signal: stop.signal }).catch((e: Error) => e);
    await turns();
    expect((await client.unfinishedTasks()).map((e) => e.name)).to.deep.equal(['build']);
    stop.abort();
    await poll(clock, stopped);
    expect(await client.unfinishedTasks()).to.have.length(1);
    const followed = client.callTool('build', { target: 'docs' });
    await turns();
    expect(await client.unfinishedTasks()).to.have.length(2);
    open();
    expect(textOf(await poll(clock, followed))).to.equal('built docs');
    await turns();
    expect(await client.unfinishedTasks()).to.have.length(1);
  });

  it('a file that is not a journal is left alone: the call still works, and warnings$ says why the journal failed', async () => {
    const path = join(dir, 'notes.json');
    await writeFile(path, 'my notes, not JSON');
    const clock = new ManualClock(0);
    const client = await connect(clock, fileTaskJournal(path));
    const warnings: ClientWarning[] = [];
    client.warnings$.subscribe((w) => warnings.push(w));
    const handle = await client.callToolAsTask('build', { target: 'x' });
    open();
    expect(textOf(await poll(clock, handle.result()))).to.equal('built x');
    // The journal is read from disk: wait (real time, bounded) for its failure to be reported.
    for (const deadline = Date.now() + 5_000; !warnings.some((w) => w.kind === 'task-journal') && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
    expect(warnings.map((w) => w.kind)).to.include('task-journal');
    expect(warnings.find((w) => w.kind === 'task-journal')!.message).to.match(/notes\.json is not a task journal/);
    expect(await readFile(path, 'utf8')).to.equal('my notes, not JSON');
    const e = await client.unfinishedTasks().catch((err: Error) => err);
    expect((e as Error).message).to.match(/not a task journal/);
  });
});
