/**
 * `record --in-process`: the recorder inside a Node.js server's own process, preloaded with
 * `--import` through NODE_OPTIONS by `tap-stdio.ts`. It copies what the server reads from stdin
 * and writes to stdout into the journal, off the round trip (the same batched, redacted writer as
 * the proxy), so no process sits between the client and the server: a proxy's extra hop costs a
 * stdio round trip 30-45% on a loaded 2-core machine, this costs a few microseconds per frame.
 *
 * It does nothing in a process that never speaks on its stdio (`npx` launching the server, say):
 * the first process that reads from stdin or writes to stdout claims the journal (the file is
 * created exclusively), and takes the preload out of its environment so its own children do not
 * record. Writes that bypass `process.stdout` (`fs.writeSync(1, …)`) are not seen.
 */
import { isMainThread } from 'node:worker_threads';
import { RecordingWriter } from './recording.js';
import { Redactor } from './redact.js';

/** What the recording process passes in the environment (JSON). */
export interface TapConfig {
  out: string;
  redact: string[];
  target: string;
  /** When recording started (ms since the epoch, with fractions): every process stamps from it. */
  startedAt: number;
  /** The NODE_OPTIONS the server would have had without the preload. */
  nodeOptions: string | undefined;
}

export const TAP_ENV = 'MCP_ACTORS_RECORD_TAP';

function install(config: TapConfig): void {
  let writer: RecordingWriter | undefined;
  let declined = false;
  /** The journal, created on the first frame; undefined when another process has it. */
  const claim = (): RecordingWriter | undefined => {
    if (writer || declined) return writer;
    try {
      writer = new RecordingWriter(config.out, { transport: 'stdio', target: config.target, inProcess: true }, new Redactor(config.redact), { exclusive: true, startedAt: config.startedAt });
    } catch {
      declined = true; // another process records (or the file cannot be made: the server runs on regardless)
      return undefined;
    }
    // This process records: its children must not.
    delete process.env[TAP_ENV];
    if (config.nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = config.nodeOptions;
    writer.transport('open');
    process.on('exit', () => writer!.close());
    return writer;
  };

  const stdin = process.stdin as unknown as { push(chunk: unknown, encoding?: unknown): boolean };
  const push = stdin.push;
  stdin.push = function (chunk: unknown, encoding?: unknown) {
    if (chunk instanceof Uint8Array) claim()?.capture('client', chunk);
    else if (typeof chunk === 'string') claim()?.capture('client', chunk);
    return push.call(this, chunk, encoding);
  };
  process.stdin.once('end', () => {
    if (!writer) return;
    writer.endCapture('client');
    writer.note({ event: 'client closed stdin' });
  });

  const write = process.stdout.write;
  process.stdout.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === 'string') claim()?.capture('server', chunk);
    else if (chunk instanceof Uint8Array) claim()?.capture('server', Buffer.from(chunk)); // the caller may reuse its buffer
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
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
