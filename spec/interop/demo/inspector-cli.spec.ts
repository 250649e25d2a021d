// @modelcontextprotocol/inspector-cli (1.0.3, `build/cli.js --cli`) against examples/everything.ts,
// over stdio (the inspector spawns the demo itself, once per call) and Streamable HTTP (one demo
// child on a free port). Each call is one inspector process printing its result as JSON.
import { expect } from 'chai';
import { STDIO_COMMAND, startHttpDemo, runInspector, type HttpDemo } from './helpers.js';

type Kind = 'stdio' | 'http';

for (const kind of ['stdio', 'http'] as Kind[]) {
  describe(`inspector-cli → demo (${kind})`, function () {
    this.timeout(30_000);
    const name = (what: string) => `inspector-cli → demo (${kind}): ${what}`;
    let demo: HttpDemo | undefined;
    const target = (): string[] => (kind === 'stdio' ? [STDIO_COMMAND.command, ...STDIO_COMMAND.args] : [demo!.url, '--transport', 'http']);
    const inspect = async (...options: string[]) => (await runInspector(target(), options)).json;

    before(async () => {
      if (kind === 'http') demo = await startHttpDemo();
    });

    after(async () => {
      await demo?.stop();
    });

    afterEach(function () {
      if (this.currentTest?.state === 'failed' && demo) console.error(`server output:\n${demo.output.join('')}`);
    });

    it(name('tools/list'), async () => {
      const { tools } = await inspect('--method', 'tools/list');
      const names = (tools as { name: string }[]).map((t) => t.name);
      expect(names).to.include.members(['convert_units', 'search_notes', 'add_note', 'summarize_note', 'rebuild_index']);
      const convert = (tools as { name: string; inputSchema: { required: string[] }; outputSchema?: object }[]).find((t) => t.name === 'convert_units');
      expect(convert?.inputSchema.required).to.deep.equal(['value', 'from', 'to']);
      expect(convert?.outputSchema).to.be.an('object');
    });

    it(name('tools/call convert_units'), async () => {
      // The inspector JSON-parses each value: value=100 arrives as the number 100.
      const result = await inspect('--method', 'tools/call', '--tool-name', 'convert_units', '--tool-arg', 'value=100', 'from=celsius', 'to=fahrenheit');
      expect(result.isError).to.not.equal(true);
      expect(result.content).to.deep.equal([{ type: 'text', text: '100 celsius = 212 fahrenheit' }]);
      expect(result.structuredContent).to.deep.equal({ value: 212, unit: 'fahrenheit', kind: 'temperature' });
    });

    it(name('tools/call search_notes'), async () => {
      const result = await inspect('--method', 'tools/call', '--tool-name', 'search_notes', '--tool-arg', 'query=orchids');
      expect(result.isError).to.not.equal(true);
      expect(result.structuredContent).to.deep.equal({
        matches: [{ id: 'n3', title: 'Orchids on the limestone slope', uri: 'notes://note/n3', priority: 'low' }],
      });
    });

    it(name('resources/list'), async () => {
      const { resources } = await inspect('--method', 'resources/list');
      const uris = (resources as { uri: string }[]).map((r) => r.uri);
      expect(uris).to.include.members(['notes://index', 'station://status', 'notes://note/n1', 'notes://note/n2', 'notes://note/n3']);
      expect((resources as { uri: string }[]).find((r) => r.uri === 'notes://note/n1')).to.include({
        name: 'n1',
        title: 'Heron colony at the north marsh',
        mimeType: 'text/markdown',
      });
    });

    it(name('resources/read a static resource and a template-expanded one'), async () => {
      const index = await inspect('--method', 'resources/read', '--uri', 'notes://index');
      expect(index.contents).to.have.length(1);
      expect(index.contents[0]).to.include({ uri: 'notes://index', mimeType: 'application/json' });
      expect((JSON.parse(index.contents[0].text) as { id: string }[]).map((n) => n.id)).to.include.members(['n1', 'n2', 'n3']);
      const note = await inspect('--method', 'resources/read', '--uri', 'notes://note/n2');
      expect(note.contents).to.have.length(1);
      expect(note.contents[0]).to.include({ uri: 'notes://note/n2', mimeType: 'text/markdown' });
      expect(note.contents[0].text).to.match(/^# Weather station battery\n/);
    });

    it(name('resources/templates/list'), async () => {
      const { resourceTemplates } = await inspect('--method', 'resources/templates/list');
      expect(resourceTemplates).to.have.length(1);
      expect(resourceTemplates[0]).to.include({ uriTemplate: 'notes://note/{id}', name: 'note', mimeType: 'text/markdown' });
    });

    it(name('prompts/list'), async () => {
      const { prompts } = await inspect('--method', 'prompts/list');
      const review = (prompts as { name: string; arguments?: unknown[] }[]).find((p) => p.name === 'review_note');
      expect((prompts as { name: string }[]).map((p) => p.name)).to.include.members(['review_note', 'weekly_review']);
      expect(review?.arguments).to.deep.equal([{ name: 'id', description: 'Note id', required: true }]);
    });

    it(name('prompts/get with its required argument'), async () => {
      const review = await inspect('--method', 'prompts/get', '--prompt-name', 'review_note', '--prompt-args', 'id=n1');
      expect(review.description).to.equal('Review of "Heron colony at the north marsh"');
      expect(review.messages).to.have.length(2);
      expect(review.messages[0]).to.deep.include({ role: 'user' });
      expect(review.messages[0].content).to.include({ type: 'resource' });
      expect(review.messages[0].content.resource).to.include({ uri: 'notes://note/n1', mimeType: 'text/markdown' });
      expect(review.messages[1].content).to.include({ type: 'text' });
      const weekly = await inspect('--method', 'prompts/get', '--prompt-name', 'weekly_review', '--prompt-args', 'tag=equipment');
      expect(weekly.messages).to.have.length(1);
      expect(weekly.messages[0].content.text).to.include('tagged #equipment').and.include('Weather station battery').and.not.include('Heron');
    });
  });
}
