/**
 * Fuzz a real Streamable HTTP server process (examples/everything.ts on a free port): one
 * session per revision, each case POSTed as its body (raw bytes, huge bodies, wrong headers
 * too), every response body (JSON or SSE) held to the same invariants as over stdio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import type { Revision } from '../../../lib/protocol/revisions.js';
import { AnswerChecker, CaseGenerator, type FuzzCase, type FuzzTally } from './cases.js';
import { Prng } from './prng.js';
import { EVERYTHING } from './stdio-run.js';
import { tsArgs } from '../../helpers/ts-child.js';

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Start examples/everything.ts over HTTP on a free port. */
export async function startHttpServer(): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [...tsArgs(EVERYTHING)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: '0', NO_COLOR: '1' } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`no URL from the server within 60 s: ${out}`)), 60_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (s: string) => {
      out += s;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
        out = '';
      }
      if (out.length > 100_000) out = out.slice(-1000);
    });
    child.stderr!.resume();
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 3_000).unref();
      await exited;
    },
  };
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The JSON-RPC messages in a response body (JSON or SSE). */
export async function messagesOf(res: Response): Promise<unknown[]> {
  const text = await res.text();
  if (text === '') return [];
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    const out: unknown[] = [];
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data !== '') out.push(JSON.parse(data));
    }
    return out;
  }
  return [JSON.parse(text)];
}

export interface HttpRunResult extends FuzzTally {
  seed: number;
  revision: Revision;
  alive: boolean;
  statuses: Record<number, number>;
}

/** One session on `revision` at `url`: `count` cases from `seed`, POSTed one after another. */
export async function fuzzHttpSession(url: string, options: { seed: number; revision: Revision; count: number; hugeBodies?: number }): Promise<HttpRunResult> {
  const { seed, revision, count } = options;
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'fuzzer', version: '1' } } }),
  });
  const sid = init.headers.get('mcp-session-id');
  const [initAnswer] = (await messagesOf(init)) as { result?: { protocolVersion?: string } }[];
  if (sid === null || initAnswer?.result?.protocolVersion !== revision) throw new Error(`initialize failed: ${init.status} ${JSON.stringify(initAnswer)}`);
  const headers: Record<string, string> = { ...HEADERS, 'mcp-session-id': sid };
  if (revision !== '2025-03-26') headers['mcp-protocol-version'] = revision;
  await (await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();

  const checker = new AnswerChecker();
  const statuses: Record<number, number> = {};
  const gen = new CaseGenerator(new Prng(seed), revision);
  const cases: (FuzzCase & { headers?: Record<string, string> })[] = [];
  while (cases.length < count) cases.push(...gen.next());
  for (let i = 0; i < (options.hugeBodies ?? 1); i++) {
    cases.push({ family: 'huge-body', data: `{"jsonrpc":"2.0","id":"huge-${i}","method":"ping","params":{"x":"${'x'.repeat(4.5 * 1024 * 1024)}"}}`, expect: { kind: 'answer', id: null, codes: [-32600], result: false } });
  }
  // Wrong headers: refused before the body is looked at.
  cases.push({ family: 'wrong-content-type', data: '{"jsonrpc":"2.0","id":"ct","method":"ping"}', headers: { 'content-type': 'text/plain' }, expect: { kind: 'answer', id: null, codes: [-32600], result: false } });
  cases.push({ family: 'wrong-accept', data: '{"jsonrpc":"2.0","id":"acc","method":"ping"}', headers: { accept: 'text/html' }, expect: { kind: 'answer', id: null, codes: [-32600], result: false } });
  for (const c of cases) {
    if (c.family !== 'huge-body') checker.expect(c);
    let messages: unknown[];
    try {
      if (c.family === 'huge-body') {
        // The server answers 413 without reading the body and closes: fetch would fail on the
        // write (EPIPE) before showing the answer, so this one goes through node:http.
        const { status, body } = await postIgnoringWriteErrors(url, { ...headers, ...c.headers }, c.data);
        statuses[status] = (statuses[status] ?? 0) + 1;
        // Status 0: the connection closed before the 413 could be read (the client was still
        // writing); the server's liveness is checked at the end either way.
        if (status !== 0) checker.expect(c);
        messages = body === '' ? [] : [JSON.parse(body)];
      } else {
        // Never hang: a POST with no answer in 15 s is a failure of its own.
        const res = await fetch(url, { method: 'POST', headers: { ...headers, ...c.headers }, body: c.data, signal: AbortSignal.timeout(15_000) });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        messages = await messagesOf(res);
      }
    } catch (e) {
      checker.tally.failures.push(`${c.family}: no valid answer (${(e as Error).message}) to ${String(c.data).slice(0, 300)}`);
      continue;
    }
    for (const m of messages) {
      // A refused notification or response: the transport's error status with an error body
      // that has no id (the spec's MAY), not an answer.
      if (m !== null && typeof m === 'object' && !Array.isArray(m) && !('id' in m)) continue;
      checker.receive(m);
    }
  }
  const ping = await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","id":"last","method":"ping"}' });
  const alive = ping.status === 200 && JSON.stringify(await messagesOf(ping)).includes('"result":{}');
  await fetch(url, { method: 'DELETE', headers }).then((r) => r.text());
  const failures = checker.finish();
  if (!alive) failures.push('the server no longer answers');
  return { ...checker.tally, failures, seed, revision, alive, statuses };
}

/** A POST whose response is read even when the server stops reading the body and closes. */
export function postIgnoringWriteErrors(url: string, headers: Record<string, string>, body: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (s: string) => (text += s));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'EPIPE' && (e as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(e);
    });
    req.on('close', () => {
      if (!answered) resolve({ status: 0, body: '' });
    });
    req.end(body);
  });
}

export interface ModernHttpRunResult extends FuzzTally {
  seed: number;
  alive: boolean;
  statuses: Record<number, number>;
}

/**
 * Stateless 2026-07-28 POSTs (no session): each case with its own headers. Beyond the checker's
 * invariants, no answer may be a 5xx (a server error means a check let bad input through).
 */
export async function fuzzModernHttp(url: string, cases: readonly (FuzzCase & { headers: Record<string, string> })[], seed: number): Promise<ModernHttpRunResult> {
  const checker = new AnswerChecker();
  const statuses: Record<number, number> = {};
  for (const c of cases) {
    checker.expect(c);
    try {
      const res = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...c.headers }, body: c.data, signal: AbortSignal.timeout(15_000) });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 500) checker.tally.failures.push(`${c.family}: HTTP ${res.status} for ${String(c.data).slice(0, 200)}`);
      for (const m of await messagesOf(res)) {
        if (m !== null && typeof m === 'object' && !Array.isArray(m) && !('id' in m)) continue;
        checker.receive(m);
      }
    } catch (e) {
      checker.tally.failures.push(`${c.family}: no valid answer (${(e as Error).message}) to ${String(c.data).slice(0, 300)}`);
    }
  }
  const probe = { jsonrpc: '2.0', id: 'last', method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
  const ping = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }, body: JSON.stringify(probe) });
  const alive = ping.status === 200 && JSON.stringify(await messagesOf(ping)).includes('"id":"last","result"');
  const failures = checker.finish();
  if (!alive) failures.push('the server no longer answers');
  return { ...checker.tally, failures, seed, alive, statuses };
}
