/**
 * Bench prototype: a stdio pass-through that forwards each chunk with a synchronous write to the
 * other pipe's fd (falling back to the stream when the pipe is full), instead of `pipe()`.
 * `node pass-sync.js <command> [args...]`
 */
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import type { Writable } from 'node:stream';

const child = spawn(process.argv[2]!, process.argv.slice(3), { stdio: ['pipe', 'pipe', 'inherit'] });
const childIn = (child.stdin as unknown as { _handle: { fd: number } })._handle.fd;

function forward(fd: number, chunk: Buffer, stream: Writable): void {
  if (stream.writableLength > 0) {
    stream.write(chunk); // keep the order behind what is queued
    return;
  }
  try {
    const n = writeSync(fd, chunk);
    if (n < chunk.length) stream.write(chunk.subarray(n));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') stream.write(chunk);
    else throw e;
  }
}
process.stdin.on('data', (c: Buffer) => forward(childIn, c, child.stdin));
child.stdout.on('data', (c: Buffer) => forward(1, c, process.stdout));
process.stdin.on('end', () => child.stdin.end());
child.on('close', (code) => process.exit(code ?? 0));
