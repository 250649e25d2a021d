// Shared bits of the interop specs: fixture paths and a stderr line log to wait on.
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { tsArgs } from '../helpers/ts-child.js';

export const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export const OURS_SERVER = fileURLToPath(new URL('../fixtures/interop/ours-server.ts', import.meta.url));
export const SDK_SERVER = fileURLToPath(new URL('../fixtures/interop/sdk-server.ts', import.meta.url));

/** How to run a TypeScript fixture as a child: node itself, with tsx as a loader. */
export function fixtureCommand(path: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [...tsArgs(path)] };
}

/**
 * The lines a child wrote to stderr, so far and to come. `waitFor` resolves with the first line
 * (already seen or still to come) matching the pattern after `from` (an index into `lines`).
 */
export class LineLog {
  readonly lines: string[] = [];
  private waiters: { re: RegExp; from: number; resolve: (line: string) => void }[] = [];

  push(line: string): void {
    this.lines.push(line);
    const index = this.lines.length - 1;
    this.waiters = this.waiters.filter((w) => {
      if (index < w.from || !w.re.test(line)) return true;
      w.resolve(line);
      return false;
    });
  }

  waitFor(re: RegExp, from = 0): Promise<string> {
    const seen = this.lines.slice(from).find((l) => re.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ re, from, resolve }));
  }

  /** Feed it from a readable (e.g. the SDK transport's stderr PassThrough). */
  static of(stream: Readable): LineLog {
    const log = new LineLog();
    createInterface({ input: stream }).on('line', (l) => log.push(l));
    return log;
  }
}

/** The text of the first content item of a tools/call result. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  if (!content?.[0] || content[0].type !== 'text') throw new Error(`Not a text result: ${JSON.stringify(result)}`);
  return content[0].text!;
}
