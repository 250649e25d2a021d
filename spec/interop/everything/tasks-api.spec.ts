// OUR Client's task API (callTool following a task, callToolAsTask with status$) against the
// reference server's task tool `simulate-research-query`, over stdio and Streamable HTTP.
import { expect } from 'chai';
import { openEverything, TRANSPORTS, type Everything } from './session.js';

const text = (r: { content?: unknown }): string =>
  ((r.content ?? []) as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');

for (const kind of TRANSPORTS) {
  describe(`interop: our task API against server-everything (${kind})`, function () {
    this.timeout(60_000);
    let e: Everything;

    before(async function () {
      this.timeout(60_000);
      e = await openEverything(kind);
    });

    after(async () => {
      await e?.close();
    });

    it('callTool on a required-task tool and callToolAsTask with input_required both come back with the report', async () => {
      const tools = await e.client.listTools();
      expect(tools.find((t) => t.name === 'simulate-research-query')!.execution).to.deep.equal({ taskSupport: 'required' });
      const before = e.formRequests.length;
      const handle = await e.client.callToolAsTask('simulate-research-query', { topic: 'python', ambiguous: true }, { ttl: 60_000 });
      const statuses: string[] = [];
      handle.status$.subscribe((t) => statuses.push(t.status));
      // Meanwhile a plain callTool: listTools said the tool requires a task, so it runs as one, transparently.
      const [plain, asked] = await Promise.all([e.client.callTool('simulate-research-query', { topic: 'actors' }), handle.result()]);
      expect(text(plain)).to.match(/^# Research Report: actors/);
      expect(text(asked)).to.include('# Research Report: python (snake)');
      expect(e.formRequests.length).to.equal(before + 1);
      expect(statuses[0]).to.equal('working');
      expect(statuses).to.include('input_required');
      expect(statuses[statuses.length - 1]).to.equal('completed');
      // The task can be read again by id, from this session.
      expect((await e.client.task(handle.taskId).result()).content).to.deep.equal(asked.content);
    });
  });
}
