import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/entries/client.js';
import { ConnectionClosedError } from '../../lib/errors.js';
import type { Diagnostic } from '../../lib/session/session.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { CLIENT_INFO } from '../helpers/raw-peer.js';
import { tsArgs } from '../helpers/ts-child.js';

const crashy = fileURLToPath(new URL('../fixtures/session/crashy-server.ts', import.meta.url));
const everything = fileURLToPath(new URL('../../examples/everything.ts', import.meta.url));
const pushy = fileURLToPath(new URL('../fixtures/client-modern/pushy-modern-server.mjs', import.meta.url));

describe('sessions over stdio', () => {
  it('a crash with requests in flight rejects them all, naming the exit code and the last stderr lines', async function () {
    this.timeout(20_000);
    const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(crashy)], stderr: 'pipe' });
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    await client.connect(transport);
    // The banner line was not JSON: noted, not answered, and the session is up.
    expect(diags.some((d) => d.kind === 'invalid-frame')).to.equal(true);
    expect((await client.request('tools/call', { name: 'echo' })).content).to.deep.equal([{ type: 'text', text: 'ok' }]);

    const inFlight = [
      client.request('tools/call', { name: 'slow' }),
      client.request('tools/call', { name: 'slow' }),
      client.request('tools/call', { name: 'crash' }),
    ].map((p) => p.then(() => null, (e) => e));
    const errors = await Promise.all(inFlight);
    for (const err of errors) {
      expect(err).to.be.instanceOf(ConnectionClosedError);
      expect(err.message).to.match(/code 3/);
      expect(err.message).to.contain('flux capacitor');
    }
    expect(client.currentPhase).to.equal('failed');
    expect(client.error?.message).to.match(/code 3/);
  });

  it('a missing command fails connect() with a message that says so', async () => {
    const transport = createStdioClientTransport({ command: 'definitely-not-a-command-mcp-actors' });
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const err = await client.connect(transport).then(() => null, (e) => e);
    expect(err).to.be.an('error');
    expect(err.message).to.contain('definitely-not-a-command-mcp-actors');
    expect(err.message).to.match(/not found|ENOENT/);
  });

  it('[LIFE-119] [STDIO-020] a server process answers what it was asked and exits on its own once its stdin ends', async function () {
    this.timeout(20_000);
    const child = spawn(process.execPath, [...tsArgs(everything), '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // A 2026-07-28 request (no initialize on stdio in that era), and stdin closes right behind it.
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO };
    child.stdin.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }) + '\n');
    expect(await exited).to.equal(0);
    const lines = out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id?: unknown; method?: string; result?: { tools?: unknown[] } });
    expect(lines.filter((l) => l.id === 1)).to.have.length(1);
    expect(lines.find((l) => l.id === 1)!.result!.tools).to.be.an('array').with.length.greaterThan(0);
    // Nothing but responses (and notifications) on stdout: the server sent no request.
    expect(lines.filter((l) => l.method !== undefined && l.id !== undefined)).to.deep.equal([]);
  });

  it('[STDIO-018] [BASE-121] our client in the 2026-07-28 era writes no JSON-RPC response, even to requests a server should not send: input goes back in the retried request', async function () {
    this.timeout(20_000);
    const client = new Client({ era: 'auto', info: CLIENT_INFO });
    client.setRoots([{ uri: 'file:///tmp/project', name: 'project' }]);
    client.onElicitation({ form: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [pushy], stderr: 'ignore' }));
    try {
      expect(client.era).to.equal('modern');
      // The server pushed ping, roots/list and elicitation/create right after discovery; the call
      // below is answered after them, so its report includes whatever the client wrote in reply.
      const result = await client.callTool('report', {});
      const lines = (JSON.parse((result.content[0] as { text: string }).text) as string[]).map((l) => JSON.parse(l) as { id?: unknown; method?: string; params?: Record<string, unknown> });
      expect(lines.filter((l) => l.method === undefined), 'responses written by the client').to.deep.equal([]);
      const calls = lines.filter((l) => l.method === 'tools/call');
      expect(calls).to.have.length(2);
      expect(calls[1]!.params!.inputResponses).to.deep.equal({ who: { action: 'accept', content: { name: 'Ada' } } });
      expect(lines.some((l) => ['s1', 's2', 's3'].includes(l.id as string))).to.equal(false);
    } finally {
      await client.close();
    }
  });

  it('[STDIO-014] takes the server\'s stderr for a log, not an error, however alarming its lines', async function () {
    this.timeout(20_000);
    const client = new Client({ era: 'auto', info: CLIENT_INFO });
    client.onElicitation({ form: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    const transport = createStdioClientTransport({ command: process.execPath, args: [pushy], env: { NOISY: '1' }, stderr: 'pipe' });
    const stderr: string[] = [];
    transport.stderr$.subscribe((line) => stderr.push(line));
    await client.connect(transport);
    try {
      expect(client.era).to.equal('modern');
      const result = await client.callTool('report', {});
      expect(result.isError).to.not.equal(true);
      expect(client.currentPhase).to.equal('operating');
      expect(client.error).to.equal(undefined);
      expect(diags).to.deep.equal([]);
      expect(stderr.join('')).to.contain('FATAL ERROR');
    } finally {
      await client.close();
    }
  });
});
