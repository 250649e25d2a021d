// `mcp-actors record`: both directions journaled with timing, stdio and HTTP, secrets hidden
// before anything is written, and what was recorded kept when the server dies midway.
import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpServer } from '../../lib/mcp-server.js';
import { listen } from '../../lib/http/listen-port.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { background, CLI, runInProcess, TERMINAL_SERVER_CMD } from './helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

const q = (words: string[]) => words.map((w) => JSON.stringify(w)).join(' ');
const recordCmd = (out: string, extra: string[] = []) => q([process.execPath, ...tsArgs(CLI), 'record', '--out', out, ...extra, '--', ...TERMINAL_SERVER_CMD]);
/** `record --target` started on a free port; `url` is where clients go. */
async function recordHttp(out: string, target: string) {
  const started = await background([...tsArgs(CLI), 'record', '--out', out, '--target', target], /Point your client at (\S+)/);
  return { ...started, url: started.match[1]! };
}
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('mcp-actors record', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-rec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stdio: the client sees the server unchanged; the journal holds both directions in order, with times', async () => {
    const out = join(dir, 's.jsonl');
    // A legacy session (initialize, a session); the 2026-07-28 era's recordings are in modern.spec.ts.
    const run = await runInProcess(['call', 'slow', 'steps=2', 'ms=20', '--era', 'legacy', '--stdio', recordCmd(out)]);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.include('counted to 2');
    const [header, ...entries] = lines(out);
    expect(header).to.include({ format: 'mcp-actors/journal', version: 1, role: 'server' });
    expect(header.recorder).to.include({ kind: 'proxy', transport: 'stdio' });
    const frames = entries.filter((e) => e.kind === 'in' || e.kind === 'out').map((e) => `${e.kind} ${e.frame.method ?? `#${e.frame.id}`}`);
    expect(frames).to.deep.equal(['in initialize', 'out #0', 'in notifications/initialized', 'in tools/list', 'out #1', 'in tools/call', 'out notifications/progress', 'out notifications/progress', 'out #2']);
    const times = entries.map((e) => e.t);
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    expect(entries.map((e) => e.seq)).to.deep.equal(entries.map((_e, i) => i));
    expect(entries.find((e) => e.frame?.method === 'notifications/progress').frame.params.progressToken).to.not.equal('[REDACTED]');
    expect(entries.at(-1)).to.include({ kind: 'transport', phase: 'closed' });
  });

  it('hides secrets before writing: secret-named fields, Bearer credentials in text, and --redact keys', async () => {
    const out = join(dir, 's.jsonl');
    const run = await runInProcess(['call', 'echo', 'password=hunter2-secret', 'note=Bearer abcdefghijklmnop', 'city=Paris', 'apiKey=sk-live-123456', '--stdio', recordCmd(out, ['--redact', 'city'])]);
    expect(run.stdout).to.include('got apiKey,city,note,password');
    const text = readFileSync(out, 'utf8');
    for (const secret of ['hunter2-secret', 'abcdefghijklmnop', 'Paris', 'sk-live-123456']) expect(text).to.not.include(secret);
    const call = lines(out).find((e) => e.frame?.method === 'tools/call');
    expect(call.frame.params.arguments).to.deep.equal({ password: '[REDACTED]', note: 'Bearer [REDACTED]', city: '[REDACTED]', apiKey: '[REDACTED]' });
  });

  it('a server that dies midway: the client is told, the recording keeps everything up to the death', async () => {
    const out = join(dir, 's.jsonl');
    const run = await runInProcess(['call', 'crash', '--stdio', recordCmd(out)]);
    expect(run.code).to.equal(3);
    const entries = lines(out).slice(1);
    const methods = entries.map((e) => e.frame?.method).filter(Boolean);
    // The default era probes first: initialize for a legacy server, server/discover for a 2026-07-28 one.
    expect(methods.some((m) => m === 'initialize' || m === 'server/discover')).to.equal(true);
    expect(methods).to.include.members(['tools/list', 'tools/call']);
    expect(entries.at(-1)).to.deep.include({ kind: 'transport', phase: 'failed', error: 'server exited with code 3' });
  });

  it('HTTP: proxies Streamable HTTP on 127.0.0.1, journals frames with method, status and session id, never the Authorization header', async () => {
    const mcp = createMcpServer({ info: { name: 'http-fixture', version: '1.0.0' } });
    mcp.registerTool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }, (args: any) => String(args.a + args.b));
    const server = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    const out = join(dir, 'h.jsonl');
    const recorder = await recordHttp(out, server.url);
    try {
      const url = recorder.url;
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const run = await runInProcess(['call', 'add', 'a=2', 'b=3', '--era', 'legacy', '--url', url, '--header', 'Authorization: Bearer supersecret-token-1']);
      expect(run.stdout.trim()).to.equal('5');
    } finally {
      await recorder.stop();
    }
    try {
      // The HTTP recording verifies against the live HTTP server.
      const verified = await runInProcess(['replay', out, '--as', 'client', '--url', server.url]);
      expect(verified.stdout, verified.stdout + verified.stderr).to.include('3 requests, no differences after normalization');
    } finally {
      await server.close();
    }
    const text = readFileSync(out, 'utf8');
    expect(text).to.not.include('supersecret-token-1');
    const entries = lines(out).slice(1);
    const call = entries.find((e) => e.frame?.method === 'tools/call');
    expect(call.http).to.include({ method: 'POST', path: '/mcp' });
    expect(call.http.sessionId).to.be.a('string');
    expect(call.headers.authorization).to.equal('[REDACTED]');
    const answer = entries.find((e) => e.kind === 'out' && e.frame.id === call.frame.id);
    expect(answer.frame.result.content[0].text).to.equal('5');
    expect(answer.http.status).to.equal(200);
  });

  it('HTTP: a body nested 100,000 deep is forwarded and journaled with its depth cut; the recorder stays up for the next call', async () => {
    const mcp = createMcpServer({ info: { name: 'http-fixture', version: '1.0.0' } });
    mcp.registerTool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }, (args: any) => String(args.a + args.b));
    const server = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    const out = join(dir, 'deep.jsonl');
    const recorder = await recordHttp(out, server.url);
    try {
      const url = recorder.url;
      const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"apiKey":"sk-deep-secret","a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: deep });
      expect(answer.status, 'the server refused it, through the recorder').to.be.within(400, 499);
      await answer.text();
      const run = await runInProcess(['call', 'add', 'a=2', 'b=3', '--era', 'legacy', '--url', url]);
      expect(run.stdout.trim()).to.equal('5');
      expect(recorder.child.exitCode ?? recorder.child.signalCode, 'the recorder is still running').to.equal(null);
    } finally {
      await recorder.stop();
      await server.close();
    }
    const text = readFileSync(out, 'utf8');
    expect(text).to.not.include('sk-deep-secret');
    expect(text).to.include('nested deeper than 1000 levels');
    const entries = lines(out).slice(1);
    expect(entries.some((e) => e.frame?.params?.arguments?.apiKey === '[REDACTED]')).to.equal(true);
    expect(entries.some((e) => e.kind === 'out' && e.frame?.result?.content?.[0]?.text === '5')).to.equal(true);
  });
});

describe('mcp-actors record: legacy HTTP+SSE', function () {
  this.timeout(30000);
  it('proxies a legacy HTTP+SSE server (the client falls back): the SSE stream and the POSTed messages are journaled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rec-'));
    const mcp = createMcpServer({ info: { name: 'sse-fixture', version: '1.0.0' } });
    mcp.registerTool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }, (args: any) => String(args.a + args.b));
    const server = await listen(createStreamableHttpHandler(mcp.server, { legacySse: true }), { logger: false });
    const out = join(dir, 'sse.jsonl');
    const sseUrl = new URL('/sse', server.url).href;
    const recorder = await recordHttp(out, sseUrl);
    try {
      const url = recorder.url;
      const run = await runInProcess(['call', 'add', 'a=20', 'b=22', '--url', url]);
      expect(run.stdout.trim(), run.stderr).to.equal('42');
    } finally {
      await recorder.stop();
      await server.close();
    }
    const entries = lines(out).slice(1);
    const call = entries.find((e) => e.frame?.method === 'tools/call');
    expect(call.http.path).to.match(/^\/messages\?sessionId=/);
    const answer = entries.find((e) => e.kind === 'out' && e.frame.id === call.frame.id);
    expect(answer.frame.result.content[0].text).to.equal('42');
    expect(answer.http.method).to.equal('GET');
    expect(entries.some((e) => e.detail?.event === 'sse endpoint')).to.equal(true);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('mcp-actors record: a legacy HTTP+SSE server that announces an absolute endpoint', function () {
  this.timeout(30000);
  it('rewrites the endpoint URL to the proxy, so the client posts through the recorder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rec-'));
    const mcp = createMcpServer({ info: { name: 'sse-absolute', version: '1.0.0' } });
    mcp.registerTool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }, (args: any) => String(args.a + args.b));
    const legacy = createStreamableHttpHandler(mcp.server, { legacySse: true });
    let origin = '';
    // As some servers do: `event: endpoint` names an absolute URL on the server's own origin.
    const absolute = (req: IncomingMessage, res: ServerResponse) => {
      if (req.method === 'GET' && req.url?.startsWith('/sse')) {
        const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
        res.write = ((chunk: unknown, ...rest: unknown[]) => write(String(chunk).replace('data: /messages', `data: ${origin}/messages`), ...rest)) as typeof res.write;
      }
      return legacy(req, res);
    };
    const server = await listen(absolute, { logger: false });
    origin = new URL(server.url).origin;
    const out = join(dir, 'abs.jsonl');
    const recorder = await recordHttp(out, new URL('/sse', server.url).href);
    try {
      const url = recorder.url;
      const run = await runInProcess(['call', 'add', 'a=20', 'b=22', '--url', url]);
      expect(run.stdout.trim(), run.stderr).to.equal('42');
      const proxyOrigin = new URL(url).origin;
      await new Promise((r) => setTimeout(r, 100));
      const entries = lines(out).slice(1);
      const endpoint = entries.find((e) => e.detail?.event === 'sse endpoint');
      expect(endpoint.detail.endpoint).to.match(new RegExp(`^${origin}/messages\\?sessionId=`));
      expect(endpoint.detail.rewrittenTo).to.match(new RegExp(`^${proxyOrigin}/messages\\?sessionId=`));
      // The client's POSTs came through the proxy: the call and its answer are in the recording.
      const call = entries.find((e) => e.frame?.method === 'tools/call');
      expect(call.http.path).to.match(/^\/messages\?sessionId=/);
      expect(entries.find((e) => e.kind === 'out' && e.frame.id === call.frame.id).frame.result.content[0].text).to.equal('42');
    } finally {
      await recorder.stop();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves relative endpoints alone and says when one points at another origin (the client would post around the recorder)', async () => {
    const { rewriteEndpoint } = await import('../../lib/cli/proxy-http.js');
    const target = new URL('http://127.0.0.1:9000/sse');
    expect(rewriteEndpoint('/messages?sessionId=1', target, 'http://127.0.0.1:4000')).to.deep.equal({ data: '/messages?sessionId=1', foreign: false });
    expect(rewriteEndpoint('http://127.0.0.1:9000/messages?sessionId=1', target, 'http://127.0.0.1:4000')).to.deep.equal({ data: 'http://127.0.0.1:4000/messages?sessionId=1', foreign: false });
    expect(rewriteEndpoint('https://elsewhere.example/messages?sessionId=1', target, 'http://127.0.0.1:4000')).to.deep.equal({ data: 'https://elsewhere.example/messages?sessionId=1', foreign: true });
  });
});

describe('record: the redaction pre-check', () => {
  it('lets no secret-named key through the fast path that writes lines as they came', async () => {
    const { Redactor } = await import('../../lib/shared/redactor.js');
    const { isSecretKey } = await import('../../lib/server-features/redaction.js');
    const r = new Redactor(['city']);
    const keys = ['password', 'passwd', 'db_passphrase', 'clientSecret', 'access_token', 'Token', 'api__key', 'X-Api-Key', 'Authorization', 'set-cookie', 'credentials', 'private_key', 'session-id', 'city'];
    for (const k of keys) {
      expect(isSecretKey(k) || k === 'city', k).to.equal(true);
      expect(r.mayHoldSecrets(JSON.stringify({ params: { [k]: 'x' } })), k).to.equal(true);
    }
    expect(r.mayHoldSecrets('{"params":{"_meta":{"progressToken":3},"text":"hello"}}')).to.equal(false);
    expect(r.mayHoldSecrets('{"text":"Bearer abcdefghijk"}')).to.equal(true);
  });
});
