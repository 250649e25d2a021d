/**
 * The stdio recording proxy: a real client launches `mcp-actors record --out f -- <server>` in
 * place of the server. Bytes pass through unchanged in both directions as they arrive (with
 * back-pressure); a copy goes to the tap, whose worker thread splits, parses, redacts and journals
 * it, so this thread only forwards.
 */
import { spawn } from 'node:child_process';
import type { Tap } from './tap-handover.js';

export interface StdioProxyOptions {
  command: string;
  args: string[];
  tap: Tap;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Runs until the server exits; resolves with its exit code (3 when it could not start). */
export function proxyStdio(o: StdioProxyOptions): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(o.command, o.args, { stdio: ['pipe', 'pipe', 'inherit'], shell: false });
    const w = o.tap;
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      w.event({ kind: 'end', side: 'client' });
      w.event({ kind: 'end', side: 'server' });
      o.stdin.off('data', onClient);
      o.stdin.off('end', onClientEnd);
      o.stdin.pause();
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, onSignal);
      resolve(code);
    };
    const onClient = (chunk: Buffer) => {
      // Forward first: the journal copy is worked on after the bytes are on their way.
      if (!child.stdin.write(chunk)) {
        o.stdin.pause();
        child.stdin.once('drain', () => o.stdin.resume());
      }
      w.capture(0, chunk);
    };
    const onClientEnd = () => {
      w.event({ kind: 'end', side: 'client' });
      w.event({ kind: 'note', detail: { event: 'client closed stdin' } });
      child.stdin.end();
    };
    const onSignal = (signal: NodeJS.Signals) => {
      w.event({ kind: 'note', detail: { event: `recorder got ${signal}` } });
      child.kill(signal);
    };
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      if (!o.stdout.write(chunk)) {
        child.stdout.pause();
        o.stdout.once('drain', () => child.stdout.resume());
      }
      w.capture(1, chunk);
    });
    child.once('spawn', () => {
      w.event({ kind: 'transport', phase: 'open' });
      o.stdin.on('data', onClient);
      o.stdin.on('end', onClientEnd);
      o.stdin.resume();
    });
    child.once('error', (e: NodeJS.ErrnoException) => {
      w.event({ kind: 'transport', phase: 'failed', error: `could not start ${o.command}: ${e.code ?? e.message}` });
      o.stderr.write(`error: could not start ${o.command}: ${e.code === 'ENOENT' ? 'command not found; check the command and your PATH' : e.message}\n`);
      finish(3);
    });
    child.once('close', (code, signal) => {
      w.event({ kind: 'end', side: 'server' });
      const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
      if (code === 0) w.event({ kind: 'transport', phase: 'closed' });
      else w.event({ kind: 'transport', phase: 'failed', error: `server ${how}` });
      finish(code ?? 1);
    });
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, onSignal);
  });
}
