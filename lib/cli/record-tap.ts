/**
 * `record --in-process`: the recorder inside a Node.js server's own process, preloaded with
 * `--import` through NODE_OPTIONS by `tap-stdio.ts`. It copies what the server reads from stdin
 * and writes to stdout into a ring of shared memory (tap-ring.ts) that a worker thread
 * (record-tap-worker.ts) reads and journals with the proxy's redacting writer. No process sits
 * between the client and the server, and the server's own thread only pays for the copies (a
 * proxy's extra hop costs a sequential stdio round trip 30-45%; bench/README.md has this one's).
 *
 * It does nothing in a process that never speaks on its stdio (`npx` launching the server, say):
 * the first process that reads from stdin or writes to stdout claims the journal (the file is
 * created exclusively), and takes the preload out of its environment so its own children do not
 * record. Writes that bypass `process.stdout` (`fs.writeSync(1, …)`) are not seen. Without worker
 * threads (a worker that cannot start), the ring is journaled on the server's thread.
 */
import { openSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { Tap, type TapJournal } from './tap-handover.js';

/** What the recording process passes in the environment (JSON). */
export interface TapConfig extends TapJournal {
  /** The NODE_OPTIONS the server would have had without the preload. */
  nodeOptions: string | undefined;
}

export const TAP_ENV = 'MCP_ACTORS_RECORD_TAP';

function install(config: TapConfig): void {
  let tap: Tap | undefined;
  let declined = false;
  /** The journal, created on the first frame; undefined when another process has it. */
  const claim = (): Tap | undefined => {
    if (tap || declined) return tap;
    let fd: number;
    try {
      fd = openSync(config.out, 'wx');
    } catch {
      declined = true; // another process records (or the file cannot be made: the server runs on regardless)
      return undefined;
    }
    // This process records: its children must not.
    delete process.env[TAP_ENV];
    if (config.nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = config.nodeOptions;
    tap = new Tap(config, fd);
    tap.event({ kind: 'transport', phase: 'open' });
    process.on('exit', () => tap!.close());
    return tap;
  };

  const stdin = process.stdin as unknown as { push(chunk: unknown, encoding?: unknown): boolean };
  const push = stdin.push;
  stdin.push = function (chunk: unknown, encoding?: unknown) {
    if (chunk instanceof Uint8Array || typeof chunk === 'string') claim()?.capture(0, chunk);
    return push.call(this, chunk, encoding);
  };
  process.stdin.once('end', () => {
    tap?.event({ kind: 'end', side: 'client' });
    tap?.event({ kind: 'note', detail: { event: 'client closed stdin' } });
  });

  const write = process.stdout.write;
  process.stdout.write = function (this: NodeJS.WriteStream, chunk: unknown) {
    if (chunk instanceof Uint8Array || typeof chunk === 'string') claim()?.capture(1, chunk);
    // `arguments` as it came (no rest array per write): V8 passes it on without a copy.
    // eslint-disable-next-line prefer-rest-params
    return (write as (...args: unknown[]) => boolean).apply(this, arguments as unknown as unknown[]);
  } as typeof process.stdout.write;
}

const raw = process.env[TAP_ENV];
if (raw !== undefined && isMainThread) {
  try {
    install(JSON.parse(raw) as TapConfig);
  } catch (e) {
    process.stderr.write(`mcp-actors record: cannot record in this process: ${(e as Error).message}\n`);
  }
}
