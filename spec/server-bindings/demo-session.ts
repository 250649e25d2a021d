// One session against the demo server (examples/everything-server.ts) wherever it is served: tools,
// a progress notification, an elicitation, a resource and a prompt, by each client a user has:
// ours (2025 era, and 2026-07-28 stateless), the SDK 1.32.2 client, and the SDK v2 2.4.0 client
// (its default 2025 era, and pinned to 2026-07-28: elicitation through input-required rounds,
// progress on the request's SSE response).
import { expect } from 'chai';
import { Client as SdkV2Client, StreamableHTTPClientTransport as SdkV2Http } from '@modelcontextprotocol/client';
import { Client as SdkV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkV1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

export type DemoClient = 'ours' | 'ours 2026-07-28' | 'sdk 1.32.2' | 'sdk v2 2.4.0' | 'sdk v2 2.4.0 2026-07-28';
export const DEMO_CLIENTS: readonly DemoClient[] = ['ours', 'ours 2026-07-28', 'sdk 1.32.2', 'sdk v2 2.4.0', 'sdk v2 2.4.0 2026-07-28'];

/** What the elicitation handlers answer; add_note files the note under this title. */
const ANSWER = { title: 'Otter tracks', priority: 'high' };
const BODY = 'Fresh otter tracks on the mud bank by the sluice.';

interface Observed {
  tools: string[];
  progress: number[];
  added: string;
  resource: string;
  prompt: number;
  asked: number;
  /** The era the client ended up in. */
  era: 'legacy' | 'modern';
}

const textOf = (r: unknown): string =>
  (((r as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');

/** Run one session of `kind` against `url` and check what a user would see. */
export async function demoSession(kind: DemoClient, url: string): Promise<void> {
  const seen = await drive(kind, url);
  expect(seen.tools, 'tools').to.include.members(['convert_units', 'add_note', 'rebuild_index']);
  expect(seen.progress.length, 'progress notifications').to.be.greaterThan(0);
  expect(seen.progress.at(-1), 'last progress').to.equal(seen.progress.length === 0 ? undefined : Math.max(...seen.progress));
  expect(seen.asked, 'elicitations answered').to.equal(1);
  expect(seen.added, 'add_note result').to.contain('Otter tracks').and.contain('high');
  expect(seen.resource, 'notes://note/n1').to.contain('Heron colony');
  expect(seen.prompt, 'review_note messages').to.be.greaterThan(0);
  expect(seen.era, 'era').to.equal(kind.endsWith('2026-07-28') ? 'modern' : 'legacy');
}

async function drive(kind: DemoClient, url: string): Promise<Observed> {
  switch (kind) {
    case 'ours':
    case 'ours 2026-07-28': {
      const client = createClient({ info: { name: 'adapter-spec', version: '1.0.0' }, era: kind === 'ours' ? 'legacy' : 'modern' });
      let asked = 0;
      client.onElicitation({
        form: () => {
          asked++;
          return { action: 'accept', content: ANSWER };
        },
      });
      await client.connect(createStreamableHttpClientTransport(url));
      try {
        const tools = (await client.listTools()).map((t) => t.name);
        const progress: number[] = [];
        const rebuilt = await client.callTool('rebuild_index', { delayMs: 1 }, { onprogress: (p) => progress.push(p.progress) });
        expect(textOf(rebuilt)).to.match(/^Indexed \d+ notes/);
        const added = textOf(await client.callTool('add_note', { body: BODY }));
        const read = await client.readResource('notes://note/n1');
        const prompt = await client.getPrompt('review_note', { id: 'n1' });
        return { tools, progress, added, resource: JSON.stringify(read.contents), prompt: prompt.messages.length, asked, era: client.era ?? 'legacy' };
      } finally {
        await client.close();
      }
    }
    case 'sdk 1.32.2': {
      const client = new SdkV1Client({ name: 'adapter-spec-sdk1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      let asked = 0;
      client.setRequestHandler(ElicitRequestSchema, () => {
        asked++;
        return { action: 'accept', content: ANSWER };
      });
      const transport = new SdkV1Http(new URL(url));
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        const progress: number[] = [];
        const rebuilt = await client.callTool({ name: 'rebuild_index', arguments: { delayMs: 1 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
        expect(textOf(rebuilt)).to.match(/^Indexed \d+ notes/);
        const added = textOf(await client.callTool({ name: 'add_note', arguments: { body: BODY } }));
        const read = await client.readResource({ uri: 'notes://note/n1' });
        const prompt = await client.getPrompt({ name: 'review_note', arguments: { id: 'n1' } });
        await transport.terminateSession();
        return { tools, progress, added, resource: JSON.stringify(read.contents), prompt: prompt.messages.length, asked, era: 'legacy' };
      } finally {
        await client.close();
      }
    }
    case 'sdk v2 2.4.0':
    case 'sdk v2 2.4.0 2026-07-28': {
      const modern = kind !== 'sdk v2 2.4.0';
      const client = new SdkV2Client(
        { name: 'adapter-spec-sdk2', version: '2.4.0' },
        { capabilities: { elicitation: { form: {} } }, ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) } as never,
      );
      let asked = 0;
      client.setRequestHandler('elicitation/create', async () => {
        asked++;
        return { action: 'accept', content: ANSWER };
      });
      const transport = new SdkV2Http(new URL(url));
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools.map((t: { name: string }) => t.name);
        const progress: number[] = [];
        const rebuilt = await client.callTool({ name: 'rebuild_index', arguments: { delayMs: 1 } }, { onprogress: (p: { progress: number }) => progress.push(p.progress) });
        expect(textOf(rebuilt)).to.match(/^Indexed \d+ notes/);
        const added = textOf(await client.callTool({ name: 'add_note', arguments: { body: BODY } }));
        const read = await client.readResource({ uri: 'notes://note/n1' });
        const prompt = await client.getPrompt({ name: 'review_note', arguments: { id: 'n1' } });
        const era = client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
        if (!modern) await transport.terminateSession();
        return { tools, progress, added, resource: JSON.stringify(read.contents), prompt: prompt.messages.length, asked, era };
      } finally {
        await client.close();
      }
    }
  }
}
