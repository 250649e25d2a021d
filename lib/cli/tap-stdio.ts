/**
 * `record --in-process -- <node server>`: launches a Node.js stdio server with the recorder
 * preloaded in its process (`record-tap.ts`, through NODE_OPTIONS) and its stdio connected to the
 * client's directly: the recording process is no hop in the data path, it only waits, passes on
 * signals and, when the server exits, adds how it ended to the journal.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { JOURNAL_FORMAT, JOURNAL_VERSION } from '../journal/entry.js';
import { TAP_ENV, type TapConfig } from './record-tap.js';
import type { Redactor } from '../shared/redactor.js';

export interface InProcessOptions {
  command: string;
  args: string[];
  /** The journal's path (replaced). */
  out: string;
  redact: string[];
  redactor: Redactor;
  stderr: NodeJS.WritableStream;
}

const fromTs = import.meta.url.endsWith('.ts');
const TAP_MODULE = new URL(`./record-tap${fromTs ? '.ts' : '.js'}`, import.meta.url).href;

/** The `seq` of the journal's last entry (-1 when it has only its header). */
function lastSeq(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 1 << 20);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    const lines = buf.toString('utf8').trimEnd().split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const m = /^\{"seq":(\d+),/.exec(lines[i]!);
      if (m) return Number(m[1]);
    }
    return -1;
  } finally {
    closeSync(fd);
  }
}

/** Runs until the server exits; resolves with its exit code (3 when it could not start). */
export function recordInProcess(o: InProcessOptions): Promise<number> {
  rmSync(o.out, { force: true });
  const startedAt = performance.timeOrigin + performance.now();
  const target = [o.command, ...o.args].join(' ');
  const config: TapConfig = { out: o.out, redact: o.redact, target, startedAt, inProcess: true, nodeOptions: process.env.NODE_OPTIONS };
  // From sources (tests, development) the preload is TypeScript: tsx loads it.
  const preload = [...(fromTs ? [import.meta.resolve('tsx')] : []), TAP_MODULE].map((url) => `--import=${JSON.stringify(url)}`);
  const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, ...preload].filter(Boolean).join(' '), [TAP_ENV]: JSON.stringify(config) };
  const ended = (phase: 'closed' | 'failed', error?: string) => {
    const t = Math.round((performance.timeOrigin + performance.now() - startedAt) * 1000) / 1000;
    const entry = (seq: number) => JSON.stringify({ seq, t, kind: 'transport', phase, ...(error && { error }) }) + '\n';
    if (existsSync(o.out)) {
      appendFileSync(o.out, entry(lastSeq(o.out) + 1));
      return;
    }
    // Nothing was recorded: a journal that says why, as the proxy leaves one.
    const header = { format: JOURNAL_FORMAT, version: JOURNAL_VERSION, role: 'server', startedAt: 0, recorder: { kind: 'proxy', transport: 'stdio', target: String(o.redactor.value(target)), inProcess: true, startedAtIso: new Date(startedAt).toISOString() } };
    writeFileSync(o.out, JSON.stringify(header) + '\n' + entry(0));
  };
  return new Promise((resolve) => {
    const child = spawn(o.command, o.args, { stdio: 'inherit', env, shell: false });
    const onSignal = (signal: NodeJS.Signals) => child.kill(signal);
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    for (const s of signals) process.on(s, onSignal);
    const finish = (code: number) => {
      for (const s of signals) process.off(s, onSignal);
      resolve(code);
    };
    child.once('error', (e: NodeJS.ErrnoException) => {
      ended('failed', `could not start ${o.command}: ${e.code ?? e.message}`);
      o.stderr.write(`error: could not start ${o.command}: ${e.code === 'ENOENT' ? 'command not found; check the command and your PATH' : e.message}\n`);
      finish(3);
    });
    child.once('close', (code, signal) => {
      const recorded = existsSync(o.out);
      const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
      if (!recorded) {
        ended('failed', `nothing was recorded (the server ${how}): --in-process needs a Node.js server that speaks on its stdin and stdout`);
        o.stderr.write(`mcp-actors record: nothing was recorded: --in-process rides along in a Node.js server's process, and this one never spoke on stdio as one (it ${how}). Record without --in-process.\n`);
      } else if (code === 0) ended('closed');
      else ended('failed', `server ${how}`);
      finish(code ?? 1);
    });
  });
}
