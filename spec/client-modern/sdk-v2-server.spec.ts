// Our Client (default options: it finds the era) against a server built with the official SDK v2 (2.4.0) over stdio and
// Streamable HTTP: the modern era is found, tools are called (an elicitation and a sampling
// through input-required rounds), a resource is read and a prompt got.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { tsArgs } from '../helpers/ts-child.js';

const FIXTURE = 'spec/fixtures/client-modern/sdk-v2-server.ts';
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).map((b) => b.text).join('\n');

function makeClient(): Client {
  const client = new Client({ info: { name: 'mcp-actors', version: '1.0.0' } });
  client.onElicitation({ form: async () => ({ action: 'accept', content: { confirm: true } }) });
  client.onSampling(async () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'short and sweet' } }));
  return client;
}

async function exercise(client: Client): Promise<void> {
  expect(client.era).to.equal('modern');
  expect(client.protocolVersion).to.equal('2026-07-28');
  expect(client.serverInfo?.name).to.equal('sdk-v2-fixture');
  const found = await client.discover();
  expect(found.supportedVersions).to.include('2026-07-28');
  expect((await client.listTools()).map((t) => t.name)).to.include.members(['echo', 'confirm', 'summarize']);
  expect(textOf(await client.callTool('echo', { text: 'hi' }))).to.equal('echo: hi');
  expect(textOf(await client.callTool('confirm', { action: 'deploy' }))).to.equal('deploy: confirmed (state pending:deploy)');
  expect(textOf(await client.callTool('summarize', { topic: 'herons' }))).to.equal('summary by test-model: short and sweet');
  const read = await client.readResource('fixture://status');
  expect((read.contents[0] as { text?: string }).text).to.equal('all good');
  const prompt = await client.getPrompt('greet', { who: 'Ada' });
  expect(JSON.stringify(prompt.messages)).to.contain('Hello, Ada');
}

describe('interop: our client in the 2026-07-28 era against an SDK v2 (2.4.0) server', function () {
  this.timeout(60_000);

  it('over stdio', async () => {
    const client = makeClient();
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [...tsArgs(FIXTURE), '--stdio'], stderr: 'ignore' }));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it('over stdio, a hand-wired (legacy-only) SDK v2 server: server/discover is refused, the client falls back to initialize', async () => {
    const client = makeClient();
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [...tsArgs(FIXTURE), '--stdio-legacy'], stderr: 'ignore' }));
    try {
      expect(client.era).to.equal('legacy');
      expect(client.protocolVersion).to.equal('2025-11-25');
      expect(textOf(await client.callTool('echo', { text: 'old' }))).to.equal('echo: old');
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP', () => {
    let child: ChildProcess;
    let url: string;
    before(async () => {
      child = spawn(process.execPath, [...tsArgs(FIXTURE)], { stdio: ['ignore', 'pipe', 'ignore'] });
      url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.setEncoding('utf8');
        child.stdout!.on('data', (chunk: string) => {
          out += chunk;
          const m = /URL (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', () => reject(new Error(`the fixture exited early: ${out}`)));
      });
    });
    after(() => {
      child?.kill('SIGTERM');
    });

    it('every call, with Mcp-Method/Mcp-Name headers the SDK checks', async () => {
      const client = makeClient();
      await client.connect(createStreamableHttpClientTransport(url));
      try {
        await exercise(client);
      } finally {
        await client.close();
      }
    });
  });
});
