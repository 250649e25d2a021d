// The official SDK v2 client (@modelcontextprotocol/client 2.4.0) pinned to 2026-07-28 against
// OUR examples/everything.ts, over stdio and Streamable HTTP: every tool, resource and prompt,
// an elicitation and a sampling through input-required rounds (the SDK fulfils them with its
// handlers and retries). On the same HTTP process, the SDK 1.32.2 client in the legacy era.
import { expect } from 'chai';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startEverything, type ServerProcess } from '../../../scripts/real-parts/server-process.js';
import { tsArgs } from '../../helpers/ts-child.js';

const ENTRY = 'examples/everything.ts';
const ELICITED = { title: 'Dawn count', priority: 'high' };

function modernClient() {
  const client = new ClientV2(
    { name: 'sdk-v2-modern', version: '2.4.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never,
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (req: { params: { message: string } }) => {
    asked.push(`elicit:${req.params.message.slice(0, 20)}`);
    return { action: 'accept', content: ELICITED };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sample');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'Herons are nesting.' } };
  });
  return { client, asked };
}

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text).join('\n');

/** Everything a client can call on examples/everything.ts, asserted the same way in both transports. */
async function exerciseAll(client: ClientV2, asked: string[]): Promise<void> {
  expect(client.getProtocolEra()).to.equal('modern');
  expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
  const tools = (await client.listTools()).tools.map((t: { name: string }) => t.name);
  expect(tools).to.include.members(['convert_units', 'search_notes', 'add_note', 'summarize_note', 'rebuild_index']);
  const converted = await client.callTool({ name: 'convert_units', arguments: { value: 100, from: 'celsius', to: 'fahrenheit' } });
  expect(JSON.stringify(converted.structuredContent)).to.contain('212');
  const found = await client.callTool({ name: 'search_notes', arguments: { query: 'heron' } });
  expect(JSON.stringify(found.structuredContent)).to.contain('n1');
  // An elicitation through MRTR: input_required, the SDK asks its handler, retries, complete.
  const added = await client.callTool({ name: 'add_note', arguments: { body: 'Two otters at the weir.' } });
  expect(textOf(added)).to.contain('Dawn count').and.contain('high');
  // A sampling through MRTR.
  const summary = await client.callTool({ name: 'summarize_note', arguments: { id: 'n1' } });
  expect(textOf(summary)).to.contain('test-model').and.contain('Herons are nesting.');
  expect(asked).to.include('sample');
  expect(asked.some((a) => a.startsWith('elicit:'))).to.equal(true);
  const rebuilt = await client.callTool({ name: 'rebuild_index', arguments: { delayMs: 0 } });
  expect(textOf(rebuilt)).to.match(/^Indexed \d+ notes/);

  const resources = (await client.listResources()).resources.map((r: { uri: string }) => r.uri);
  expect(resources).to.include.members(['notes://index', 'station://status', 'notes://note/n1']);
  for (const uri of ['notes://index', 'station://status', 'notes://note/n1']) {
    const read = await client.readResource({ uri });
    expect(read.contents[0]!.uri).to.equal(uri);
  }
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate);
  expect(templates).to.include('notes://note/{id}');
  const prompts = (await client.listPrompts()).prompts.map((p: { name: string }) => p.name);
  expect(prompts).to.include.members(['review_note', 'weekly_review']);
  const review = await client.getPrompt({ name: 'review_note', arguments: { id: 'n1' } });
  expect(review.messages.length).to.be.greaterThan(0);
  const weekly = await client.getPrompt({ name: 'weekly_review', arguments: {} });
  expect(weekly.messages.length).to.be.greaterThan(0);
  const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'id', value: 'n' } });
  expect(completed.completion.values).to.include('n1');
}

describe('interop: SDK v2 client in the 2026-07-28 era against our everything server', function () {
  this.timeout(60_000);

  it('over stdio: every tool (elicitation and sampling through MRTR), resource and prompt', async () => {
    const { client, asked } = modernClient();
    const transport = new StdioV2({ command: process.execPath, args: [...tsArgs(ENTRY), '--stdio'], stderr: 'ignore' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).to.be.a('string');
      await exerciseAll(client, asked);
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP, one process for both eras', () => {
    let server: ServerProcess | undefined;
    let url: string;
    before(async () => {
      server = await startEverything({ launch: tsArgs(ENTRY) });
      url = server.url;
    });
    after(() => server?.stop());

    it('SDK v2 modern: every tool (elicitation and sampling through MRTR), resource and prompt', async () => {
      const { client, asked } = modernClient();
      await client.connect(new HttpV2(new URL(url)));
      try {
        await exerciseAll(client, asked);
      } finally {
        await client.close();
      }
    });

    it('SDK 1.32.2 legacy: initialize, a session, tools and resources on the same process', async () => {
      const client = new ClientV1({ name: 'sdk-v1-legacy', version: '1.32.2' }, { capabilities: {} });
      const transport = new HttpV1(new URL(url));
      await client.connect(transport);
      try {
        expect(client.getServerVersion()?.name).to.be.a('string');
        expect(transport.sessionId).to.be.a('string');
        const tools = (await client.listTools()).tools.map((t) => t.name);
        expect(tools).to.include('convert_units');
        const r = await client.callTool({ name: 'convert_units', arguments: { value: 1, from: 'mile', to: 'kilometre' } });
        expect(JSON.stringify(r.structuredContent)).to.contain('1.6');
        // Without elicitation, add_note falls back to defaults (the legacy path, no MRTR).
        const added = await client.callTool({ name: 'add_note', arguments: { body: 'A kingfisher on the bank.' } });
        expect(textOf(added as { content?: unknown })).to.contain('Added');
        const read = await client.readResource({ uri: 'notes://index' });
        expect(read.contents[0]!.uri).to.equal('notes://index');
      } finally {
        await client.close();
      }
    });
  });
});
