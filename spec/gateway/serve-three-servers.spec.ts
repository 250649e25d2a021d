// The done-when runs through `mcp-actors serve` (a real child process) over HTTP, with three
// real servers mounted from an mcpServers file: server-everything (legacy, stdio),
// server-filesystem on a temp dir, and a server of ours. The SDK v2 client pinned to 2026-07-28
// and MCP Inspector's CLI (legacy era) call through it; one upstream killed mid-run leaves the
// other two serving, its tools leaving the list and coming back.
import { expect } from 'chai';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/client.js';
import type { Tool } from '../../lib/protocol/schema/index.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { CLI } from '../cli/helpers.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { runInspector } from '../interop/demo/helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const textOf = (r: object) => (((r as { content?: unknown }).content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
const has = (name: string) => (tools: Tool[]) => tools.some((t) => t.name === name);
const FILESYSTEM = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

describe('mcp-actors serve: three servers, official clients, one killed', function () {
  this.timeout(120_000);
  let dir: string;
  let child: ChildProcess;
  let url: string;
  let stderr = '';

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'serve-three-')));
    writeFileSync(join(dir, 'hello.txt'), 'hello from the filesystem');
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] },
          files: { command: process.execPath, args: [FILESYSTEM, dir] },
          calc: { command: process.execPath, args: [...tsArgs(path('../fixtures/host/calc-server.ts'))] },
        },
      }),
    );
    child = spawn(process.execPath, [...tsArgs(CLI), 'serve', '--http', '0', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (d) => {
        stderr += d;
        const m = /Serving .* at (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${stderr}`)));
    });
  });
  after(async () => {
    child?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('SDK v2 pinned to 2026-07-28: all three namespaced, calls routed, elicitation and progress bridged', async () => {
    const client = new ClientV2({ name: 'sdk-v2', version: '2.4.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace Hopper' } }));
    await client.connect(new HttpV2(new URL(url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
      const names = (await client.listTools()).tools.map((t: { name: string }) => t.name);
      expect(names).to.include.members(['everything__echo', 'files__read_text_file', 'calc__add']);
      expect(textOf(await client.callTool({ name: 'files__read_text_file', arguments: { path: join(dir, 'hello.txt') } }))).to.contain('hello from the filesystem');
      expect(textOf(await client.callTool({ name: 'calc__add', arguments: { a: 20, b: 22 } }))).to.equal('42');
      expect(textOf(await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} }))).to.contain('Grace Hopper');
      const progress: number[] = [];
      await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, { onprogress: (p: { progress: number }) => progress.push(p.progress) } as never);
      expect(progress).to.deep.equal([1, 2, 3]);
    } finally {
      await client.close();
    }
  });

  it("MCP Inspector's CLI (legacy era, Streamable HTTP) lists and calls through it", async () => {
    const target = [url, '--transport', 'http'];
    const { tools } = (await runInspector(target, ['--method', 'tools/list'])).json as { tools: { name: string }[] };
    expect(tools.map((t) => t.name)).to.include.members(['everything__echo', 'files__list_directory', 'calc__add']);
    const listed = (await runInspector(target, ['--method', 'tools/call', '--tool-name', 'files__list_directory', '--tool-arg', `path=${dir}`])).json;
    expect(textOf(listed)).to.contain('hello.txt');
    const echoed = (await runInspector(target, ['--method', 'tools/call', '--tool-name', 'everything__echo', '--tool-arg', 'message=inspected'])).json;
    expect(textOf(echoed)).to.contain('inspected');
  });

  it('one upstream killed mid-run: the other two serve on, its tools leave the list and return', async () => {
    const client = new Client({ info: { name: 'watcher', version: '1.0.0' }, era: 'modern' });
    await client.connect(createStreamableHttpClientTransport(url));
    try {
      await firstValueFrom(client.tools$.pipe(filter(has('calc__add'))));
      const gone = firstValueFrom(client.tools$.pipe(filter((ts) => !has('calc__add')(ts) && has('everything__echo')(ts) && has('files__read_text_file')(ts))));
      expect(await client.callTool('calc__crash', {}).then((r) => r.isError, () => true)).to.equal(true);
      await gone;
      expect(textOf(await client.callTool('everything__echo', { message: 'still here' }))).to.contain('still here');
      expect(textOf(await client.callTool('files__read_text_file', { path: join(dir, 'hello.txt') }))).to.contain('hello from the filesystem');
      await firstValueFrom(client.tools$.pipe(filter(has('calc__add'))));
      expect(textOf(await client.callTool('calc__add', { a: 1, b: 1 }))).to.equal('2');
    } finally {
      await client.close();
    }
  });
});
