/**
 * Fuzz a real stdio server process (examples/everything.ts --stdio by default): initialize on a
 * revision, write the cases as lines (raw bytes, huge lines included), read stdout, and hold the
 * answers to the invariants. Used by the spec (bounded) and by scripts/robustness.ts (long).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Revision } from '../../../lib/protocol/revisions.js';
import { AnswerChecker, CaseGenerator, type FuzzCase, type FuzzTally } from './cases.js';
import { peakRssMiB } from './process-memory.js';
import { Prng } from './prng.js';
import { tsArgs } from '../../helpers/ts-child.js';

export const EVERYTHING = fileURLToPath(new URL('../../../examples/everything.ts', import.meta.url));

export interface StdioRunResult extends FuzzTally {
  seed: number;
  revision: Revision;
  /** Whether the server was still alive and answering a ping at the end. */
  alive: boolean;
  /** Bytes of stdout that were not a valid frame line. */
  stdoutGarbage: number;
  stderrTail: string;
  /** The server's peak resident memory in MiB (Linux), read before it is stopped. */
  peakRssMiB: number | undefined;
}

/** Spawn the server, run `count` cases from `seed` on `revision`, check, stop it. */
export async function fuzzStdioServer(options: {
  seed: number;
  revision: Revision;
  count: number;
  hugeLines?: number;
  timeoutMs?: number;
  args?: string[];
  /** Cases to send instead of the session-era generator's, with no initialize first (the modern era is stateless). */
  statelessCases?: FuzzCase[];
}): Promise<StdioRunResult> {
  const { seed, revision, count } = options;
  const child = spawn(process.execPath, options.args ?? [...tsArgs(EVERYTHING), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const checker = new AnswerChecker();
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => (stderr = (stderr + s).slice(-4000)));
  let garbage = 0;
  let buffered = '';
  let waiter: (() => void) | undefined;
  const pending = new Map<string, (m: any) => void>();
  const onMessage = (m: any) => {
    if (m && typeof m === 'object' && !Array.isArray(m) && typeof m.id === 'string' && m.id.startsWith('ctl-') && pending.has(m.id)) {
      pending.get(m.id)!(m);
      pending.delete(m.id);
      return;
    }
    checker.receive(m);
    waiter?.();
  };
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (s: string) => {
    buffered += s;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        onMessage(JSON.parse(line));
      } catch {
        garbage += line.length + 1;
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // A server that died mid-run shows as EPIPE here: the run reports it instead of crashing.
  let writeError: Error | undefined;
  child.stdin!.on('error', (e) => (writeError ??= e));
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve) => {
      if (writeError !== undefined || child.exitCode !== null) return resolve();
      child.stdin!.write(Buffer.isBuffer(data) ? Buffer.concat([data, Buffer.from('\n')]) : data + '\n', (e) => {
        if (e) writeError ??= e;
        resolve();
      });
    });
  const control = (method: string, params?: unknown, timeoutMs = 20_000) => {
    const id = `ctl-${method}-${Math.random()}`;
    return new Promise<any>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no answer to ${method} within ${timeoutMs} ms`)), timeoutMs);
      pending.set(id, (m) => {
        clearTimeout(t);
        resolve(m);
      });
      void write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) }));
    });
  };

  try {
    const cases: FuzzCase[] = [];
    if (options.statelessCases !== undefined) {
      cases.push(...options.statelessCases);
    } else {
      const init = await control('initialize', { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'fuzzer', version: '1' } }, 60_000);
      if (init.result?.protocolVersion !== revision) throw new Error(`initialize answered ${JSON.stringify(init).slice(0, 300)}`);
      await write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      const gen = new CaseGenerator(new Prng(seed), revision);
      while (cases.length < count) cases.push(...gen.next());
    }
    for (let i = 0; i < (options.hugeLines ?? 1); i++) {
      // Over the 4 MiB line limit: refused under the id read from its head, the line dropped.
      const id = `huge-${i}`;
      cases.push({ family: 'huge-line', data: `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"${'x'.repeat(4.5 * 1024 * 1024)}"}}`, expect: { kind: 'answer', id, codes: [-32600], result: false } });
    }
    for (const c of cases) {
      checker.expect(c);
      await write(c.data);
    }
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    while (!checker.complete && Date.now() < deadline && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        waiter = resolve;
        setTimeout(resolve, 50);
      });
    }
    // Anything still to come after the last expected answer would show here.
    await new Promise((resolve) => setTimeout(resolve, 100));
    let alive = false;
    try {
      alive = child.exitCode === null && (await control('ping', undefined, 10_000)).result !== undefined;
    } catch {
      alive = false;
    }
    const failures = checker.finish();
    if (!alive) failures.push(`the server is gone (exit code ${child.exitCode}${writeError ? `, ${writeError.message}` : ''})`);
    if (garbage > 0) failures.push(`${garbage} bytes of stdout were not frames`);
    return { ...checker.tally, failures, seed, revision, alive, stdoutGarbage: garbage, stderrTail: stderr.slice(-1500), peakRssMiB: peakRssMiB(child.pid) };
  } finally {
    stop(child);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
}

function stop(child: ChildProcess): void {
  if (child.exitCode !== null) return;
  child.stdin!.end();
  setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 2_000).unref();
}
