/**
 * Terminal output throughput: bytes from a PTY per second, (1) to a bare node-pty `onData`
 * listener (the ceiling), (2) through our Terminal (output$ subscriber, bounded history and the
 * @xterm/headless screen), (3) to an MCP client: `terminal_run` over an in-memory transport
 * returning the whole output.
 *
 *   node --import tsx bench/terminal-throughput.ts      (BENCH_TERMINAL_MB, default 20)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { Client } from '../lib/entries/client.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { Terminal, addTerminals } from '../lib/terminal/index.js';
import { createMemoryPair } from '../streams/memory.js';

const MB = Number(process.env.BENCH_TERMINAL_MB ?? 20);
const BYTES = MB * 1_000_000;
// 100-character lines (99 x and a newline): the PTY turns each \n into \r\n.
const COMMAND = `head -c ${BYTES} /dev/zero | tr '\\0' x | fold -w 99`;
const dir = mkdtempSync(join(tmpdir(), 'bench-terminal-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', PS1: '$ ' };
const rate = (bytes: number, ms: number) => `${((bytes / 1e6) / (ms / 1000)).toFixed(1)} MB/s`;

async function bare(): Promise<void> {
  const start = performance.now();
  let bytes = 0;
  await new Promise<void>((resolve) => {
    const p = pty.spawn('/bin/sh', ['-c', COMMAND], { cols: 100, rows: 30, cwd: dir, env });
    p.onData((d) => (bytes += d.length));
    p.onExit(() => resolve());
  });
  console.log(`node-pty onData (ceiling)              ${rate(bytes, performance.now() - start)}  (${(bytes / 1e6).toFixed(1)} MB)`);
}

async function ours(): Promise<void> {
  const t = await Terminal.open({ id: 'bench', file: '/bin/bash', args: ['--norc', '--noprofile'], cwd: dir, env });
  let bytes = 0;
  t.output$.subscribe((d) => (bytes += d.length));
  await t.run('true');
  bytes = 0;
  const start = performance.now();
  await t.run(COMMAND);
  const ms = performance.now() - start;
  await t.screen();
  console.log(`Terminal output$ + history + screen     ${rate(bytes, ms)}  (screen rendered: ${rate(bytes, performance.now() - start)})`);
  t.close();
}

async function throughMcp(): Promise<void> {
  const mcp = createMcpServer({ info: { name: 'bench', version: '1' } });
  const terminals = addTerminals(mcp, { shells: { sh: { file: '/bin/bash', args: ['--norc', '--noprofile'] } }, cwds: [dir], env: { PS1: '$ ' } });
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const client = new Client({ info: { name: 'bench', version: '1' } });
  await client.connect(b);
  const { terminalId } = (await client.callTool('terminal_open', {})).structuredContent as { terminalId: string };
  let progress = 0;
  const start = performance.now();
  const r = await client.callTool('terminal_run', { terminalId, command: COMMAND }, { onprogress: () => progress++, timeout: 600_000 });
  const ms = performance.now() - start;
  const sc = r.structuredContent as { output: string; truncatedChars?: number };
  const out = sc.output.length + (sc.truncatedChars ?? 0);
  console.log(`PTY → MCP client (terminal_run)         ${rate(out, ms)}  (${progress} progress notifications, last ${sc.output.length} characters returned)`);
  terminals.closeAll();
  await client.close();
  await mcp.close();
}

try {
  await bare();
  await ours();
  await throughMcp();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
