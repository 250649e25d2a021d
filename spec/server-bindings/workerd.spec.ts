// mcp-actors/web on real workerd (Cloudflare's Workers runtime, from the `workerd` npm package,
// which ships its binary), without the `nodejs_compat` flag: the entry bundled as a Worker build
// does it (ES module, no node built-ins), served by `workerd serve` on loopback port 0 (the port it
// got read from its control descriptor, so no other process can take it between a pick and the bind), and
// driven by our own client over real HTTP in both eras: a 2026-07-28 call with an input round
// (the requestState signed in the Worker, carried by the client, verified there) and a 2025-11-25
// session (initialize, a call, close), which local workerd keeps in its one isolate's memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { build } from 'esbuild';
import { createClient } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/index.js';

const WEB_ENTRY = fileURLToPath(new URL('../../lib/entries/web.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WORKERD = join(REPO, 'node_modules', '.bin', 'workerd');

const WORKER = `
import { createMcpFetchHandler, createMcpServer, text } from ${JSON.stringify(WEB_ENTRY)};
const mcp = createMcpServer({ info: { name: 'on-workerd', version: '1.0.0' } });
mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
  content: [text('Hello, ' + String(args.name) + '!')],
}));
mcp.registerTool('ask', {}, async (_args, ctx) => {
  const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
  return { content: [text(answer.action === 'accept' ? 'Hello, ' + String(answer.content.name) + '!' : 'no name')] };
});
const handler = createMcpFetchHandler(mcp);
export default { fetch: (request) => handler(request) };
`;


describe('mcp-actors/web on real workerd (no nodejs_compat), both eras over HTTP', function () {
  this.timeout(60_000);
  let dir: string;
  let workerd: ChildProcess | undefined;
  let url: string;
  let log = '';

  before(async function () {
    this.timeout(120_000);
    dir = mkdtempSync(join(tmpdir(), 'mcp-actors-workerd-'));
    const bundled = await build({
      stdin: { contents: WORKER, resolveDir: REPO, loader: 'ts' },
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      mainFields: ['module', 'main'],
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    writeFileSync(join(dir, 'worker.js'), bundled.outputFiles[0]!.text);
    writeFileSync(
      join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .mcpWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const mcpWorker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
);
`,
    );
    // fd 3 is workerd's control descriptor: one JSON line per socket once it listens, with its port.
    workerd = spawn(WORKERD, ['serve', '--control-fd=3', join(dir, 'config.capnp')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    workerd.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    workerd.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const control = workerd.stdio[3] as Readable;
    const port = await new Promise<number>((resolve, reject) => {
      let lines = '';
      const timer = setTimeout(() => reject(new Error(`workerd did not listen within 30 s: ${log}`)), 30_000);
      control.on('data', (d: Buffer) => {
        lines += d.toString();
        for (const line of lines.split('\n')) {
          const event = /^\{.*\}$/.test(line.trim()) ? (JSON.parse(line) as { event?: string; socket?: string; port?: number }) : undefined;
          if (event?.event === 'listen' && event.socket === 'http' && event.port) {
            clearTimeout(timer);
            resolve(event.port);
          }
        }
      });
      workerd!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`workerd exited with ${code}: ${log}`));
      });
    });
    url = `http://127.0.0.1:${port}/mcp`;
  });

  after(() => {
    workerd?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('2026-07-28: lists and calls, and an elicitation travels as an input round to the client and back', async () => {
    const client = createClient({ info: { name: 'workerd-spec', version: '1.0.0' }, era: 'modern' });
    client.onElicitation({ form: () => ({ action: 'accept', content: { name: 'Ada' } }) });
    await client.connect(createStreamableHttpClientTransport(url));
    try {
      expect(client.protocolVersion).to.equal('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal(['ask', 'greet']);
      const greeted = await client.callTool({ name: 'greet', arguments: { name: 'Grace' } });
      expect(greeted.content[0]).to.deep.equal({ type: 'text', text: 'Hello, Grace!' });
      const asked = await client.callTool({ name: 'ask', arguments: {} });
      expect(asked.content[0]).to.deep.equal({ type: 'text', text: 'Hello, Ada!' });
    } finally {
      await client.close();
    }
    expect(log).to.not.match(/uncaught|exception/i);
  });

  it('2025-11-25: a session is initialized, serves a call and an elicitation, and is closed', async () => {
    const client = createClient({ info: { name: 'workerd-spec', version: '1.0.0' }, era: 'legacy' });
    client.onElicitation({ form: () => ({ action: 'accept', content: { name: 'Lin' } }) });
    await client.connect(createStreamableHttpClientTransport(url));
    try {
      expect(client.protocolVersion).to.equal('2025-11-25');
      const greeted = await client.callTool({ name: 'greet', arguments: { name: 'Grace' } });
      expect(greeted.content[0]).to.deep.equal({ type: 'text', text: 'Hello, Grace!' });
      const asked = await client.callTool({ name: 'ask', arguments: {} });
      expect(asked.content[0]).to.deep.equal({ type: 'text', text: 'Hello, Lin!' });
    } finally {
      await client.close();
    }
    expect(log).to.not.match(/uncaught|exception/i);
  });
});
