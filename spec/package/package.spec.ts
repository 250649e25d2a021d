// The package as a user gets it: `npm pack` (prepack cleans dist, prepare builds it), the tarball
// unpacked into a temporary app's node_modules with its runtime dependencies beside it (linked
// from this repository's node_modules: offline, and nothing undeclared is reachable), the README's
// examples (examples/readme/*.ts) compiled there against the shipped types with strict,
// exactOptionalPropertyTypes and no skipLibCheck, under module nodenext and bundler, then run:
// a stdio pair, an HTTP pair, Express, Fastify, Hono, the fetch handler, a crash, replay, the
// machines export and authorization; and the Web-standard examples on Bun and Deno from the package.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { machines as sourceMachines } from '../../machines/index.js';
import { startRedis } from '../../scripts/real-parts/redis-server.js';
import { PortTaken, startOnFreePort } from '../helpers/free-port.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const BUN = join(ROOT, 'node_modules', '.bin', 'bun');
const DENO = join(ROOT, 'node_modules', '.bin', 'deno');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
/** What the examples need besides the package: the user's own dependencies and types. */
const USER_DEPENDENCIES = ['@opentelemetry/api', '@opentelemetry/sdk-trace-node', 'zod', 'express', 'fastify', 'hono', '@hono/node-server', 'redis', '@redis/client', '@redis/bloom', '@redis/json', '@redis/search', '@redis/time-series', '@types/node', '@types/express', '@types/express-serve-static-core', '@types/serve-static', '@types/body-parser', '@types/qs', '@types/range-parser', '@types/send', '@types/mime', '@types/connect', '@types/http-errors'];

function link(app: string, name: string): void {
  const from = join(ROOT, 'node_modules', name);
  const to = join(app, 'node_modules', name);
  try {
    readdirSync(from);
  } catch {
    return; // not installed here (an optional @types package): the compile will say if it mattered
  }
  mkdirSync(dirname(to), { recursive: true });
  symlinkSync(from, to, 'dir');
}

describe('the packed package, installed in an app', function () {
  this.timeout(60_000);
  let work: string;
  let app: string;
  let files: string[] = [];
  const children: ChildProcess[] = [];

  before(function () {
    this.timeout(300_000);
    work = mkdtempSync(join(tmpdir(), 'mcp-actors-pack-'));
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const [packed] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = packed!.files.map((f) => f.path);
    app = join(work, 'app');
    const installed = join(app, 'node_modules', 'mcp-actors');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(work, packed!.filename), '-C', installed, '--strip-components=1']);
    for (const name of [...Object.keys(pkg.dependencies), ...USER_DEPENDENCIES]) link(app, name);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    mkdirSync(join(app, 'src'));
    for (const f of readdirSync(join(ROOT, 'examples', 'readme'))) copyFileSync(join(ROOT, 'examples', 'readme', f), join(app, 'src', f));
    const strict = { strict: true, exactOptionalPropertyTypes: true, skipLibCheck: false, target: 'ES2022', lib: ['ES2023'], types: ['node'], rootDir: 'src' };
    writeFileSync(
      join(app, 'tsconfig.nodenext.json'),
      JSON.stringify({ compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out' }, include: ['src'] }),
    );
    writeFileSync(
      join(app, 'tsconfig.bundler.json'),
      JSON.stringify({ compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler', noEmit: true }, include: ['src'] }),
    );
  });

  after(() => {
    for (const c of children) c.kill('SIGKILL');
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /**
   * The compiler's diagnostics, except xstate's own: xstate 5.33.3 (the latest) declares
   * `setup()` with constraints its declarations fail under exactOptionalPropertyTypes (TS2344 in
   * setup.d.ts), in any program that imports xstate, ours or not; and Hono's need the DOM lib.
   * Those are checked to be only that, so the day they change this test says so.
   */
  function compile(config: string): string {
    let out = '';
    try {
      execFileSync(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    const diagnostics = out.split('\n').filter((l) => /error TS\d+/.test(l));
    const upstream = diagnostics.filter((l) => l.includes('node_modules/xstate/'));
    expect(upstream.every((l) => /xstate\/dist\/declarations\/src\/setup\.d\.ts\(\d+,\d+\): error TS2344/.test(l)), upstream.join('\n')).to.equal(true);
    // Hono's websocket helper names DOM event types (MessageEvent, CloseEvent, BinaryType) that a
    // project without the DOM lib lacks: Hono's, not ours, and only those.
    const hono = diagnostics.filter((l) => l.includes('node_modules/hono/'));
    expect(hono.every((l) => /hono\/dist\/types\/helper\/websocket\/index\.d\.ts\(\d+,\d+\): error TS(2315|2304): (Type 'MessageEvent'|Cannot find name '(CloseEvent|BinaryType)')/.test(l)), hono.join('\n')).to.equal(true);
    return diagnostics.filter((l) => !l.includes('node_modules/xstate/') && !l.includes('node_modules/hono/')).join('\n');
  }

  function run(file: string, args: string[] = [], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done) => {
      execFile(process.execPath, [join(app, 'out', file), ...args], { cwd: app, env: { ...process.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  /** Start a server example (with node, or `command args… file`) and wait for the URL it prints first. */
  function serve(file: string, env: Record<string, string> = {}, command: string = process.execPath, args: string[] = []): Promise<{ url: string; child: ChildProcess }> {
    const child = spawn(command, [...args, join(app, 'out', file)], { cwd: app, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return new Promise((done, fail) => {
      let out = '';
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(out)?.[0];
        if (url) done({ url, child });
      });
      child.on('exit', (code) => fail(new Error(`${file} exited with ${code}: ${err}`)));
    });
  }

  function stop(child: ChildProcess): Promise<number | null> {
    return new Promise((done) => {
      child.removeAllListeners('exit');
      child.on('exit', (code) => done(code));
      child.kill('SIGTERM');
    });
  }

  it('ships what a user needs and nothing else', () => {
    expect(files).to.include.members(['package.json', 'README.md', 'LICENSE', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/lib/entries/client.js', 'dist/lib/entries/web.js', 'dist/lib/entries/web.d.ts', 'dist/streams/index.js', 'dist/machines/index.js']);
    expect(files.filter((f) => /^dist\/(bench|examples|spec|scripts)\//.test(f))).to.deep.equal([]);
    expect(files.filter((f) => f.endsWith('.map'))).to.deep.equal([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).to.deep.equal([]);
    expect(files.filter((f) => f.endsWith('.d.ts') && readFileSync(join(app, 'node_modules', 'mcp-actors', f), 'utf8').includes("from 'ws'"))).to.deep.equal([]);
  });

  it('the README examples compile against the shipped types: strict, exactOptionalPropertyTypes, no skipLibCheck, module nodenext', () => {
    expect(compile('tsconfig.nodenext.json')).to.equal('');
  });

  it('... and moduleResolution bundler', () => {
    expect(compile('tsconfig.bundler.json')).to.equal('');
  });

  it('runs a stdio pair: the client example spawns the server example', async () => {
    const { code, stdout, stderr } = await run('client.js');
    expect(code, stderr).to.equal(0);
    // A journaling client picks the newest era too (issue 26): 2026-07-28, whose first frame is the
    // era probe, journaled like every other.
    expect(stdout.split('\n')).to.deep.equal(['2026-07-28 notes', 'add', '5', 'Buy milk', '1', '1,2', '[{"type":"text","text":"2"}]', '']);
    expect(stderr).to.match(/^out \{"jsonrpc":"2.0","id":"[^"]+","method":"server\/discover"/m);
  });

  it('runs an HTTP pair, and the Express, Fastify, Hono and fetch-handler examples', async () => {
    for (const file of ['http-server.js', 'express.js', 'fastify.js', 'hono.js', 'fetch.js']) {
      const { url, child } = await serve(file);
      const { code, stdout, stderr } = await run('http-client.js', [url]);
      expect(code, `${file}: ${stderr}`).to.equal(0);
      expect(stdout, file).to.equal('Hello, Ada!\n');
      expect(await stop(child), file).to.equal(0);
    }
  });

  for (const [runtime, bin, runArgs] of [
    ['Bun', BUN, []],
    ['Deno', DENO, ['run', '-A']],
  ] as const) {
    it(`${runtime}: the package's exports resolve; the fetch example and Hono as a plain fetch app serve a client`, async () => {
      const { url, child } = await serve('fetch.js', {}, bin, [...runArgs]);
      const served = await run('http-client.js', [url]);
      expect(served.stdout, served.stderr).to.equal('Hello, Ada!\n');
      await stop(child);
      // A default export with `fetch`: Bun serves it on $PORT, `deno serve` on --port; on 0 both print the port they got.
      const appArgs = runtime === 'Bun' ? [join(app, 'out', 'hono-app.js')] : ['serve', '-A', '--host', '127.0.0.1', '--port', '0', join(app, 'out', 'hono-app.js')];
      const honoApp = spawn(bin, appArgs, { cwd: app, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(honoApp);
      const port = await new Promise<string>((done, fail) => {
        let said = '';
        const look = (d: Buffer) => {
          said += d.toString();
          const m = /http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(said);
          if (m) done(m[1]!);
        };
        honoApp.stdout!.on('data', look);
        honoApp.stderr!.on('data', look);
        honoApp.on('exit', (code) => fail(new Error(`hono-app.js on ${runtime} exited with ${code}: ${said}`)));
      });
      const appUrl = `http://127.0.0.1:${port}/mcp`;
      let result = await run('http-client.js', [appUrl]);
      for (let i = 0; i < 100 && result.code !== 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        result = await run('http-client.js', [appUrl]);
      }
      expect(result.stdout, result.stderr).to.equal('Hello, Ada!\n');
      honoApp.kill('SIGTERM');
    });
  }

  it('every entry point of `exports` loads on Node, Bun and Deno, with the same names', async () => {
    const entries = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
      .filter((e) => e !== './package.json')
      .map((e) => (e === '.' ? 'mcp-actors' : `mcp-actors/${e.slice(2)}`));
    writeFileSync(
      join(app, 'out', 'entries.js'),
      `const names = {};
for (const entry of ${JSON.stringify(entries)}) names[entry] = Object.keys(await import(entry)).sort().join(',');
console.log(JSON.stringify(names));
process.exit(0);`,
    );
    const outputs: Record<string, string> = {};
    for (const [runtime, command, args] of [
      ['Node', process.execPath, []],
      ['Bun', BUN, []],
      ['Deno', DENO, ['run', '-A']],
    ] as const) {
      outputs[runtime] = await new Promise<string>((done, fail) =>
        execFile(command, [...args, join(app, 'out', 'entries.js')], { cwd: app, timeout: 60_000 }, (error, stdout, stderr) =>
          error ? fail(new Error(`${runtime}: ${error.message}\n${stderr}`)) : done(stdout),
        ),
      );
    }
    const node = JSON.parse(outputs['Node']!) as Record<string, string>;
    expect(Object.keys(node)).to.deep.equal(entries);
    expect(node['mcp-actors/web']!.split(',')).to.include.members(['createMcpFetchHandler', 'createMcpServer', 'serveFetch', 'requireBearerAuth']);
    expect(node['mcp-actors/server']!.split(',')).to.include('createMcpFetchHandler');
    expect(JSON.parse(outputs['Bun']!), 'Bun').to.deep.equal(node);
    expect(JSON.parse(outputs['Deno']!), 'Deno').to.deep.equal(node);
  });

  it('the low-level server answers a client from the package', async () => {
    writeFileSync(
      join(app, 'out', 'low-level-client.js'),
      `import { createClient } from 'mcp-actors/client';
import { createStdioClientTransport } from 'mcp-actors/streams';
const client = createClient({ info: { name: 'c', version: '1' } });
await client.connect(createStdioClientTransport({ command: process.execPath, args: [new URL('./low-level-server.js', import.meta.url).pathname] }));
console.log(JSON.stringify(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })));
await client.close();`,
    );
    const { code, stdout, stderr } = await run('low-level-client.js');
    expect(code, stderr).to.equal(0);
    expect(JSON.parse(stdout).content).to.deep.equal([{ type: 'text', text: 'hi' }]);
  });

  it('a server that crashes rejects connect() with a TransportError naming it', async () => {
    const { code, stdout, stderr } = await run('crash.js');
    expect(code, stderr).to.equal(0);
    const [first, details] = stdout.split('\n');
    expect(first).to.match(/^MCP server "broken" \(.+ -e .+\) exited with code 3 unexpectedly\./);
    expect(JSON.parse(details!)).to.deep.equal({ code: 3, signal: null, stderrTail: ['config file missing'] });
  });

  it('the host example: two servers, their tools namespaced, a routed call, typed errors after close', async () => {
    const { code, stdout, stderr } = await run('host.js');
    expect(code, stderr).to.equal(0);
    expect(stdout.split('\n')).to.deep.equal(['notes__add (notes: add),archive__add (archive: add)', '42', 'true stopped', 'true', '']);
    expect(stderr).to.include('tools now: notes__add,archive__add');
  });

  it('replays a recorded session, exports the machines and inspects a session', async () => {
    const replayed = await run('replay.js');
    expect(replayed.stdout, replayed.stderr).to.equal('true no difference\n');
    const machines = await run('machines.js');
    expect(machines.stdout, machines.stderr).to.equal(`${Object.keys(sourceMachines).join(',')}\ntrue\n`);
  });

  it('runs a tool as a task: the client follows its status to the result', async () => {
    const { code, stdout, stderr } = await run('tasks.js');
    expect(code, stderr).to.equal(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).to.equal('working');
    expect(lines.slice(-2)).to.deep.equal(['completed', 'built app']);
  });

  it('the Redis example, twice on one redis-server: a task made through one process is found through the other', async () => {
    const redis = await startRedis();
    try {
      const [one, two] = [await serve('redis.js', { REDIS_URL: redis.url }), await serve('redis.js', { REDIS_URL: redis.url })];
      const post = async (url: string, method: string, params: Record<string, unknown>, name: string) => {
        const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
        });
        return ((await res.json()) as { result: Record<string, unknown> }).result;
      };
      const created = await post(one.url, 'tools/call', { name: 'report', arguments: {} }, 'report');
      expect(created.resultType).to.equal('task');
      const seen = await post(two.url, 'tasks/get', { taskId: created.taskId }, String(created.taskId));
      expect(seen.status).to.equal('working');
      expect(await stop(one.child)).to.equal(0);
      const failed = await post(two.url, 'tasks/get', { taskId: created.taskId }, String(created.taskId));
      expect([failed.status, failed.statusMessage]).to.deep.equal(['failed', 'The server stopped before the task finished; start it again']);
      expect(await stop(two.child)).to.equal(0);
    } finally {
      await redis.stop();
    }
  });

  it('a cassette records a session with the real server, then replays it with no server', async () => {
    const file = join(app, 'notes.cassette.jsonl');
    const recorded = await run('cassette.js', [file]);
    expect(recorded.stdout, recorded.stderr).to.equal('record 5\n');
    const replayed = await run('cassette.js', [file]);
    expect(replayed.stdout, replayed.stderr).to.equal('replay 5\n');
  });

  it('npx mcp-actors: the bin, linked as npm links it, talks to a server, records, verifies and inspects from the package', async () => {
    // What npm's bin-links does on install: node_modules/.bin/<name> → the package's bin, made executable.
    const installed = join(app, 'node_modules', 'mcp-actors');
    const { bin } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(Object.keys(bin)).to.deep.equal(['mcp-actors']);
    const target = join(installed, bin['mcp-actors']!);
    expect(readFileSync(target, 'utf8').split('\n')[0]).to.equal('#!/usr/bin/env node');
    chmodSync(target, 0o755);
    mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(join('..', 'mcp-actors', bin['mcp-actors']!), join(app, 'node_modules', '.bin', 'mcp-actors'));
    const npx = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        execFile('npx', ['--no-install', 'mcp-actors', ...args], { cwd: app, env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 }, (error, stdout, stderr) =>
          done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const help = await npx(['--help']);
    expect(help.code, help.stderr).to.equal(0);
    expect(help.stdout).to.include('Usage: mcp-actors <command>');
    const server = [process.execPath, join(app, 'out', 'server.js')];
    const sum = await npx(['call', 'add', 'a=2', 'b=3', '--json', '--', ...server]);
    expect(sum.code, sum.stderr).to.equal(0);
    expect(JSON.parse(sum.stdout).content[0].text).to.equal('5');
    const journal = join(app, 'npx-session.jsonl');
    const recorder = ['npx', '--no-install', 'mcp-actors', 'record', '--out', journal, '--', ...server].map((w) => JSON.stringify(w)).join(' ');
    const recorded = await npx(['call', 'add', 'a=20', 'b=22', '--era', 'legacy', '--stdio', recorder]);
    expect(recorded.stdout.trim(), recorded.stderr).to.equal('42');
    const verified = await npx(['replay', journal, '--as', 'client', '--', ...server]);
    expect(verified.code, verified.stdout + verified.stderr).to.equal(0);
    expect(verified.stdout).to.match(/\d+ requests, no differences after normalization/);
    const html = join(app, 'npx-session.html');
    const inspected = await npx(['inspect', journal, '--html', html]);
    expect(inspected.code, inspected.stderr).to.equal(0);
    expect(readFileSync(html, 'utf8')).to.include('<title>mcp-actors · ');
    const usage = await npx(['call']);
    expect(usage.code).to.equal(2);
  });

  it('authorization: a token for this server is accepted, no token is refused', async () => {
    // Its resource URL names the port before it listens: a port taken before the bind is retried.
    const { code, stdout, stderr } = await startOnFreePort(async (port) => {
      const ran = await run('auth.js', [], { PORT: String(port) });
      if (ran.code !== 0 && /EADDRINUSE/.test(ran.stderr)) throw new PortTaken(port, ran.stderr.split('\n').find((l) => l.includes('EADDRINUSE')));
      return ran;
    });
    expect(code, stderr).to.equal(0);
    const lines = stdout.split('\n');
    const [who] = JSON.parse(lines[0]!) as Array<{ text: string }>;
    expect(JSON.parse(who!.text)).to.deep.include({ clientId: 'demo', scopes: ['mcp:read'] });
    expect(lines[1]).to.match(/HTTP 401/);
  });

  // The shipped declarations against the toolchains consumers have today: TypeScript 5 and 7, and
  // @types/node 20, 22, 24 and 26 (npm aliases in devDependencies). Each consumer imports every
  // entry point, so the whole declaration graph is checked, strict and without skipLibCheck
  // (exactOptionalPropertyTypes off here: xstate's own declarations fail it, see compile()).
  // preserveSymlinks keeps each linked dependency's `types="node"` resolving to this app's copy.
  const TYPESCRIPTS = { 'TypeScript 5': TSC, 'TypeScript 7': join(ROOT, 'node_modules', 'typescript-7', 'bin', 'tsc') };
  const TYPES_NODE = { '@types/node 20': '@types/node', '@types/node 22': '@types/node-22', '@types/node 24': '@types/node-24', '@types/node 26': '@types/node-26' };
  for (const [tsName, tsc] of Object.entries(TYPESCRIPTS)) {
    it(`the declarations of every entry compile under ${tsName} with @types/node 20, 22, 24 and 26 (strict, no skipLibCheck)`, function () {
      this.timeout(240_000);
      const entries = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports).filter((e) => e !== './package.json');
      const failures: string[] = [];
      for (const [nodeName, typesDir] of Object.entries(TYPES_NODE)) {
        const consumer = join(work, `consumer-${tsName.replace(/\W/g, '')}-${typesDir.replace(/\W/g, '')}`);
        mkdirSync(join(consumer, 'node_modules', '@types'), { recursive: true });
        for (const name of readdirSync(join(app, 'node_modules'))) {
          if (name === '@types') continue;
          symlinkSync(join(app, 'node_modules', name), join(consumer, 'node_modules', name), 'dir');
        }
        symlinkSync(join(ROOT, 'node_modules', typesDir), join(consumer, 'node_modules', '@types', 'node'), 'dir');
        // @types/node's own dependency: nested in the alias's folder when its version differs from
        // the hoisted one (found there through the link), else the hoisted copy.
        if (!readdirSync(join(ROOT, 'node_modules', typesDir)).includes('node_modules')) symlinkSync(join(ROOT, 'node_modules', 'undici-types'), join(consumer, 'node_modules', 'undici-types'), 'dir');
        writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
        mkdirSync(join(consumer, 'src'));
        const lines = entries.map((e, i) => `import * as entry${i} from '${e === '.' ? 'mcp-actors' : `mcp-actors/${e.slice(2)}`}';`);
        lines.push(`export const loaded = [${entries.map((_, i) => `entry${i}`).join(', ')}].length;`);
        writeFileSync(join(consumer, 'src', 'consumer.ts'), lines.join('\n') + '\n');
        writeFileSync(
          join(consumer, 'tsconfig.json'),
          JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: false, preserveSymlinks: true, target: 'ES2022', lib: ['ES2023'], types: ['node'], module: 'nodenext', moduleResolution: 'nodenext', noEmit: true }, include: ['src'] }),
        );
        let out = '';
        try {
          execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: consumer, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
          out = String((e as { stdout?: string }).stdout ?? e);
        }
        const diagnostics = out.split('\n').filter((l) => /error TS\d+/.test(l));
        if (diagnostics.length > 0) failures.push(`${nodeName}:\n  ${diagnostics.join('\n  ')}`);
      }
      expect(failures.join('\n')).to.equal('');
    });
  }
});
