// Our Client with default options against a dual-era server (examples/everything.ts) over stdio
// and Streamable HTTP: it finds the modern era, sends the envelope on every request, and answers
// input-required rounds (an elicitation, a sampling) with its own handlers.
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { FrameEvent } from '../../lib/session/session.js';
import { startEverything, type ServerProcess } from '../../scripts/real-parts/server-process.js';
import { tsArgs } from '../helpers/ts-child.js';

const ENTRY = 'examples/everything.ts';
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text).join('\n');

function makeClient(): { client: Client; asked: string[] } {
  const asked: string[] = [];
  const client = new Client({ info: { name: 'mcp-actors-modern-spec', version: '1.0.0' }, era: 'auto' });
  client.onElicitation({
    form: async (req) => {
      asked.push(`elicit:${req.message.slice(0, 20)}`);
      return { action: 'accept', content: { title: 'Dawn count', priority: 'high' } };
    },
  });
  client.onSampling(async () => {
    asked.push('sample');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'Herons are nesting.' } };
  });
  return { client, asked };
}

async function exercise(client: Client, asked: string[]): Promise<void> {
  expect(client.era).to.equal('modern');
  expect(client.protocolVersion).to.equal('2026-07-28');
  const found = await client.discover();
  expect(found.era).to.equal('modern');
  expect(found.supportedVersions).to.include('2026-07-28');
  expect(found.capabilities).to.have.property('tools');
  const frames: FrameEvent[] = [];
  const sub = client.frames$.subscribe((f) => frames.push(f));
  const tools = (await client.listTools()).map((t) => t.name);
  expect(tools).to.include.members(['convert_units', 'add_note', 'summarize_note']);
  const converted = await client.callTool('convert_units', { value: 100, from: 'celsius', to: 'fahrenheit' });
  expect(JSON.stringify(converted.structuredContent)).to.contain('212');
  const added = await client.callTool('add_note', { body: 'Two otters at the weir.' });
  expect(textOf(added)).to.contain('Dawn count').and.contain('high');
  const summary = await client.callTool('summarize_note', { id: 'n1' }, { trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
  expect(textOf(summary)).to.contain('Herons are nesting.');
  expect(asked).to.include('sample');
  expect(asked.some((a) => a.startsWith('elicit:'))).to.equal(true);
  const read = await client.readResource('notes://index');
  expect(read.contents[0]!.uri).to.equal('notes://index');
  const prompts = (await client.listPrompts()).map((p) => p.name);
  expect(prompts).to.include('review_note');
  sub.unsubscribe();
  // Every request out carried the envelope; the rounds of add_note are visible (two tools/call with different ids).
  const out = frames.filter((f) => f.direction === 'out').map((f) => f.frame as { id?: number; method?: string; params?: { _meta?: Record<string, unknown>; inputResponses?: unknown } });
  for (const f of out.filter((o) => o.id !== undefined)) {
    expect(f.params?._meta?.['io.modelcontextprotocol/protocolVersion']).to.equal('2026-07-28');
    expect(f.params?._meta?.['io.modelcontextprotocol/clientCapabilities']).to.deep.include({ elicitation: { form: {} } });
    expect(f.params?._meta?.['io.modelcontextprotocol/clientInfo']).to.deep.equal({ name: 'mcp-actors-modern-spec', version: '1.0.0' });
  }
  const retries = out.filter((f) => f.method === 'tools/call' && f.params?.inputResponses !== undefined);
  expect(retries.length).to.be.greaterThanOrEqual(2);
  const traced = out.find((f) => f.method === 'tools/call' && f.params?._meta?.traceparent !== undefined);
  expect(traced?.params?._meta?.traceparent).to.match(/^00-0af7/);
}

describe('client: the 2026-07-28 era against a dual-era server (examples/everything.ts)', function () {
  this.timeout(60_000);

  it('[DISC-002] over stdio: the server/discover probe finds the modern era; tools, MRTR rounds, resources, prompts', async () => {
    const { client, asked } = makeClient();
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [...tsArgs(ENTRY), '--stdio'], stderr: 'ignore' }));
    try {
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP', () => {
    let server: ServerProcess | undefined;
    let url: string;
    before(async () => {
      server = await startEverything({ launch: tsArgs(ENTRY) });
      url = server.url;
    });
    after(() => server?.stop());

    it('[HTTP-118] [HTTP-157] [HTTP-158] era auto: modern, no session id, the envelope and Mcp-Method/Mcp-Name headers on every POST', async () => {
      const seen: Headers[] = [];
      const { client, asked } = makeClient();
      const transport = createStreamableHttpClientTransport(url, {
        fetch: (input, init) => {
          seen.push(new Headers(init?.headers));
          return fetch(input, init);
        },
      });
      await client.connect(transport);
      try {
        await exercise(client, asked);
        expect(transport.sessionId).to.equal(undefined);
        for (const h of seen) {
          expect(h.get('mcp-protocol-version')).to.equal('2026-07-28');
          expect(h.get('mcp-method')).to.be.a('string');
        }
        expect(seen.some((h) => h.get('mcp-method') === 'tools/call' && h.get('mcp-name') === 'add_note')).to.equal(true);
        expect(seen.some((h) => h.get('mcp-method') === 'resources/read' && h.get('mcp-name') === 'notes://index')).to.equal(true);
        // tools$ opens a subscriptions/listen (a held POST) next to other calls; closing ends it.
        const tools = await firstValueFrom(client.tools$.pipe(filter((t) => t.length > 0)));
        expect(tools.map((t) => t.name)).to.include('add_note');
        await client.callTool('convert_units', { value: 0, from: 'celsius', to: 'fahrenheit' });
        expect(seen.some((h) => h.get('mcp-method') === 'subscriptions/listen')).to.equal(true);
      } finally {
        await client.close();
      }
    });

    it('era "legacy": initialize and a session on the same endpoint, the old API unchanged', async () => {
      const client = new Client({ info: { name: 'legacy', version: '1.0.0' }, era: 'legacy' });
      const transport = createStreamableHttpClientTransport(url);
      await client.connect(transport);
      try {
        expect(client.era).to.equal('legacy');
        expect(transport.sessionId).to.be.a('string');
        const d = await client.discover();
        expect(d.era).to.equal('legacy');
        expect((await client.listTools()).map((t) => t.name)).to.include('convert_units');
      } finally {
        await client.close();
      }
    });
  });
});
