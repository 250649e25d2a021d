// The same 2026-07-28 session run by the official SDK v2 client (pinned to 2026-07-28) and by our
// Client (era modern) against examples/everything.ts: a listen stream (resource list changes and
// updates of notes://index), tools, an elicitation and a sampling through input-required rounds,
// progress, a resource, a prompt and a completion. Each returns what the session got, so a
// recorded run and a replayed one can be compared.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { Transport } from '../../streams/transport.js';
import { tsArgs } from '../helpers/ts-child.js';
import { watchWire } from '../helpers/wire-watch.js';

export const EVERYTHING_STDIO = [process.execPath, ...tsArgs('examples/everything.ts'), '--stdio'];
export const ELICITED = { title: 'Dawn count', priority: 'high' };
export const SAMPLED = 'Herons are nesting.';

export type Server = { command: string; args: string[] } | { url: string };

/** A server run from TypeScript sources on a busy machine can take seconds to answer its first request. */
const PATIENT = { probeTimeoutMs: 60_000, timeout: 60_000 };

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait until `ready()` (bounded). */
async function until(ready: () => boolean, ms = 10000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready() && Date.now() < deadline) await sleep(20);
}

export interface SessionOutcome {
  tools: string[];
  added: string;
  summary: string;
  rebuilt: string;
  progress: number;
  read: string;
  prompt: string;
  completion: string[];
  /** Notifications that came on the listen stream. */
  notifications: string[];
  asked: string[];
}

/** The SDK v2 client pinned to 2026-07-28 (its stdio transport probes on a sibling process first). */
export async function sdkV2Session(server: Server): Promise<SessionOutcome> {
  const client = new ClientV2({ name: 'sdk-v2-modern', version: '2.4.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async () => {
    asked.push('elicitation');
    return { action: 'accept', content: ELICITED };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: SAMPLED } };
  });
  const notifications: string[] = [];
  client.setNotificationHandler('notifications/resources/list_changed' as never, async () => void notifications.push('resources/list_changed'));
  client.setNotificationHandler('notifications/resources/updated' as never, async (n: { params: { uri: string } }) => void notifications.push(`resources/updated ${n.params.uri}`));
  const transport = 'url' in server ? new HttpV2(new URL(server.url)) : new StdioV2({ ...server, stderr: 'ignore' });
  await client.connect(transport as never);
  try {
    const sub = await (client as unknown as { listen(f: unknown): Promise<{ close(): Promise<void> }> }).listen({ resourcesListChanged: true, resourceSubscriptions: ['notes://index'] });
    const tools = (await client.listTools()).tools.map((t: { name: string }) => t.name);
    const added = textOf(await client.callTool({ name: 'add_note', arguments: { body: 'Two otters at the weir.' } }));
    const summary = textOf(await client.callTool({ name: 'summarize_note', arguments: { id: 'n1' } }));
    let progress = 0;
    const rebuilt = textOf(await client.callTool({ name: 'rebuild_index', arguments: { delayMs: 0 } }, { onprogress: () => void progress++ } as never));
    const read = (await client.readResource({ uri: 'notes://note/n2' })).contents.map((c) => ('text' in c ? c.text : '')).join('');
    const prompt = JSON.stringify((await client.getPrompt({ name: 'weekly_review', arguments: { tag: 'birds' } })).messages);
    const completion = (await client.complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'id', value: 'n' } })).completion.values;
    await until(() => notifications.length >= 2);
    await sub.close();
    return { tools, added, summary, rebuilt, progress: Math.min(progress, 1), read, prompt, completion, notifications: [...notifications].sort(), asked };
  } finally {
    await client.close();
  }
}

/** Our Client in the 2026-07-28 era. */
export async function oursModernSession(server: Server): Promise<SessionOutcome> {
  const client = new Client({ info: { name: 'ours-modern', version: '1.0.0' }, era: 'modern', ...PATIENT });
  const asked: string[] = [];
  client.onElicitation({
    form: async () => {
      asked.push('elicitation');
      return { action: 'accept', content: ELICITED };
    },
  });
  client.onSampling(async () => {
    asked.push('sampling');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: SAMPLED } };
  });
  const transport: Transport = 'url' in server ? createStreamableHttpClientTransport(server.url) : createStdioClientTransport({ ...server, stderr: 'ignore' });
  await client.connect(transport);
  const wire = watchWire(transport);
  const notifications: string[] = [];
  try {
    const updates = client.subscribe('notes://index').subscribe((u) => notifications.push(`resources/updated ${u.uri}`));
    const lists = client.resources$.subscribe(() => notifications.push('resources/list_changed'));
    // The listen asking for both is acknowledged: over HTTP it is a POST of its own, which a call
    // can overtake on a loaded machine (then the note's update would go to nobody).
    await wire.inboundFrame((f) => {
      const asked = f.method === 'notifications/subscriptions/acknowledged' ? f.params?.notifications : undefined;
      return asked?.resourcesListChanged === true && (asked.resourceSubscriptions ?? []).includes('notes://index');
    }, 'acknowledged listen for the list changes and notes://index');
    const tools = (await client.listTools()).map((t) => t.name);
    const added = textOf(await client.callTool('add_note', { body: 'Two otters at the weir.' }));
    const summary = textOf(await client.callTool('summarize_note', { id: 'n1' }));
    let progress = 0;
    const rebuilt = textOf(await client.callTool('rebuild_index', { delayMs: 0 }, { onprogress: () => void progress++ }));
    const read = (await client.readResource('notes://note/n2')).contents.map((c) => ('text' in c ? c.text : '')).join('');
    const prompt = JSON.stringify((await client.getPrompt('weekly_review', { tag: 'birds' })).messages);
    const completion = (await client.complete({ type: 'ref/prompt', name: 'review_note' }, { name: 'id', value: 'n' })).completion.values;
    await until(() => notifications.includes('resources/updated notes://index'));
    updates.unsubscribe();
    lists.unsubscribe();
    return { tools, added, summary, rebuilt, progress: Math.min(progress, 1), read, prompt, completion, notifications: [...new Set(notifications)].filter((n) => n !== 'resources/list_changed').sort(), asked };
  } finally {
    await client.close();
  }
}

/** A session with the SDK v2 fixture server (spec/fixtures/client-modern/sdk-v2-server.ts): echo, a confirmation (elicitation with a requestState), a summary (sampling), a resource, a prompt. */
export async function sdkServerSession(clientKind: 'ours' | 'sdk', server: Server): Promise<string[]> {
  const out: string[] = [];
  if (clientKind === 'ours') {
    const client = new Client({ info: { name: 'ours-modern', version: '1.0.0' }, era: 'modern', ...PATIENT });
    client.onElicitation({ form: async () => ({ action: 'accept', content: { confirm: true } }) });
    client.onSampling(async () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: SAMPLED } }));
    await client.connect('url' in server ? createStreamableHttpClientTransport(server.url) : createStdioClientTransport({ ...server, stderr: 'ignore' }));
    try {
      out.push(textOf(await client.callTool('echo', { text: 'hi' })));
      out.push(textOf(await client.callTool('confirm', { action: 'delete' })));
      out.push(textOf(await client.callTool('summarize', { topic: 'herons' })));
      out.push((await client.readResource('fixture://status')).contents.map((c) => ('text' in c ? c.text : '')).join(''));
      out.push(JSON.stringify((await client.getPrompt('greet', { who: 'Ada' })).messages));
    } finally {
      await client.close();
    }
    return out;
  }
  const client = new ClientV2({ name: 'sdk-v2-modern', version: '2.4.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  client.setRequestHandler('sampling/createMessage', async () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: SAMPLED } }));
  await client.connect(('url' in server ? new HttpV2(new URL(server.url)) : new StdioV2({ ...server, stderr: 'ignore' })) as never);
  try {
    out.push(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })));
    out.push(textOf(await client.callTool({ name: 'confirm', arguments: { action: 'delete' } })));
    out.push(textOf(await client.callTool({ name: 'summarize', arguments: { topic: 'herons' } })));
    out.push((await client.readResource({ uri: 'fixture://status' })).contents.map((c) => ('text' in c ? c.text : '')).join(''));
    out.push(JSON.stringify((await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).messages));
  } finally {
    await client.close();
  }
  return out;
}
