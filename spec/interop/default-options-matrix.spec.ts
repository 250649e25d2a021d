// Our Client with DEFAULT OPTIONS (no era given: it finds the era by itself) against official SDK
// servers, over stdio and Streamable HTTP: the SDK v2 (2.4.0) server in the modern era
// (2026-07-28: elicitation and sampling through input rounds, the update through
// subscriptions/listen) and an SDK 1.32.2 server in the legacy era (initialize and a session:
// elicitation and sampling as server requests, the update after resources/subscribe). The same
// script runs everywhere: every tool, a resource, a prompt, a completion, a subscription update.
// (server-everything, the reference legacy server, runs the whole of its surface with default
// options in spec/interop/everything.)
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { Transport } from '../../streams/transport.js';
import { tsArgs } from '../helpers/ts-child.js';

const SDK_V2 = 'spec/fixtures/client-modern/sdk-v2-server.ts';
const SDK_V1 = 'spec/fixtures/interop/sdk-v1-full-server.ts';
const STATUS = 'fixture://status';
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).map((b) => b.text).join('\n');

/** The client as a user writes it: info and handlers, nothing about eras. */
function defaultClient(): Client {
  const client = new Client({ info: { name: 'matrix', version: '1.0.0' } });
  client.onElicitation({ form: async () => ({ action: 'accept', content: { confirm: true } }) });
  client.onSampling(async () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'short and sweet' } }));
  return client;
}

async function exercise(client: Client, era: 'modern' | 'legacy', server: string): Promise<void> {
  expect(client.era).to.equal(era);
  expect(client.serverInfo?.name).to.equal(server);
  expect((await client.listTools()).map((t) => t.name)).to.include.members(['echo', 'confirm', 'summarize', 'touch']);
  expect(textOf(await client.callTool('echo', { text: 'hi' }))).to.equal('echo: hi');
  expect(textOf(await client.callTool('confirm', { action: 'deploy' }))).to.match(/^deploy: confirmed/);
  expect(textOf(await client.callTool('summarize', { topic: 'herons' }))).to.equal('summary by test-model: short and sweet');
  expect((await client.listResources()).map((r) => r.uri)).to.include(STATUS);
  expect((await client.readResource(STATUS)).contents[0]).to.include({ uri: STATUS, text: 'all good' });
  expect(JSON.stringify((await client.getPrompt('greet', { who: 'Ada' })).messages)).to.contain('Hello, Ada');
  const completed = await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'who', value: 'A' });
  expect(completed.completion.values).to.include.members(['Ada', 'Alan']);

  // A subscription update: touch until the (asynchronously opened) subscription carries one.
  const updates: string[] = [];
  const sub = client.subscribe(STATUS).subscribe((u) => updates.push(u.uri));
  try {
    const deadline = Date.now() + 15_000;
    while (updates.length === 0) {
      if (Date.now() > deadline) throw new Error('no resource update arrived');
      await client.callTool('touch', {});
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(updates[0]).to.equal(STATUS);
  } finally {
    sub.unsubscribe();
  }
}

/** Start an HTTP fixture process; resolves with its URL. */
function startHttp(entry: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...tsArgs(entry)], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const m = /URL (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', () => reject(new Error(`the fixture exited early: ${out}`)));
  });
}

const SERVERS = [
  { name: 'the SDK v2 (2.4.0) server', entry: SDK_V2, era: 'modern' as const, info: 'sdk-v2-fixture' },
  { name: 'an SDK 1.32.2 server', entry: SDK_V1, era: 'legacy' as const, info: 'sdk-v1-fixture' },
];

describe('interop: our client with default options against the official SDKs\' servers', function () {
  this.timeout(90_000);

  for (const s of SERVERS) {
    describe(s.name, () => {
      it(`over stdio: the ${s.era} era, every tool, a resource, a prompt, a completion, a subscription update`, async () => {
        const client = defaultClient();
        const transport: Transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(s.entry), '--stdio'], stderr: 'ignore' });
        await client.connect(transport);
        try {
          await exercise(client, s.era, s.info);
        } finally {
          await client.close();
        }
      });

      describe('over Streamable HTTP', () => {
        let server: { child: ChildProcess; url: string };
        before(async () => {
          server = await startHttp(s.entry);
        });
        after(() => {
          server?.child.kill('SIGTERM');
        });
        it(`the ${s.era} era, every tool, a resource, a prompt, a completion, a subscription update`, async () => {
          const client = defaultClient();
          await client.connect(createStreamableHttpClientTransport(server.url));
          try {
            await exercise(client, s.era, s.info);
          } finally {
            await client.close();
          }
        });
      });
    });
  }
});
