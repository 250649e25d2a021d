/**
 * Cassettes for tests, with mocha or any runner: the first run records a session with the real
 * server into a file; later runs replay that file as a mock server (no server process). A request
 * the cassette does not hold is rejected with a readable diff against the closest recorded one,
 * which fails the test.
 *
 * ```ts
 * import { cassette } from 'mcp-actors/cassette';
 * const tape = await cassette('spec/cassettes/weather.jsonl', { server: { command: 'node', args: ['weather-server.js'] } });
 * const client = new Client({ info });
 * await client.connect(tape.transport());   // recording or replaying, the test does not care
 * ...
 * await tape.close();
 * ```
 * `MCP_ACTORS_CASSETTE=record` records again over an existing file; `=replay` refuses to record.
 * Other clients (the official SDK...) launch `tape.command` over stdio instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Subscription } from 'rxjs';
import type { Frame } from '../jsonrpc/message.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { OversizeFrame, type Transport } from '../../streams/transport.js';
import type { Server } from '../server.js';
import { readJournalFile } from './journal-file.js';
import { createMockServer } from './mock-server.js';
import { Normalizer } from './normalize.js';
import { readExchanges } from './recorded-exchanges.js';
import { RecordingWriter } from './recording.js';
import { Redactor } from '../shared/redactor.js';

export interface CassetteOptions {
  /** The real server, spawned over stdio when recording. */
  server: { command: string; args?: string[]; env?: Record<string, string> };
  /** `auto` (default): replay when the file exists, else record. Overridden by MCP_ACTORS_CASSETTE. */
  mode?: 'auto' | 'record' | 'replay';
  /** JSON paths left out of request matching (see `replay --ignore`). */
  ignore?: string[];
  /** More keys to redact while recording. */
  redact?: string[];
}

export interface Cassette {
  readonly file: string;
  readonly mode: 'record' | 'replay';
  /** A fresh transport to connect our Client with. */
  transport(): Transport;
  /** A stdio command line that serves (or records) the cassette, for other clients. */
  readonly command: { command: string; args: string[] };
  /** Finish: stop the server, write the file. */
  close(): Promise<void>;
}

const CLI_MAIN = fileURLToPath(new URL(`./main${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
const CLI_ARGS = import.meta.url.endsWith('.ts') ? ['--import', 'tsx', CLI_MAIN] : [CLI_MAIN];

export async function cassette(file: string, options: CassetteOptions): Promise<Cassette> {
  const env = process.env.MCP_ACTORS_CASSETTE;
  const wanted = env === 'record' || env === 'replay' ? env : (options.mode ?? 'auto');
  const mode: 'record' | 'replay' = wanted === 'auto' ? (existsSync(file) ? 'replay' : 'record') : wanted;
  if (mode === 'replay' && !existsSync(file)) throw new Error(`Cassette ${file} does not exist and replay was asked for: run once with MCP_ACTORS_CASSETTE=record`);
  const ignoreArgs = (options.ignore ?? []).flatMap((p) => ['--ignore', p]);
  const redactArgs = (options.redact ?? []).flatMap((k) => ['--redact', k]);
  const command =
    mode === 'replay'
      ? { command: process.execPath, args: [...CLI_ARGS, 'replay', file, '--as', 'server', ...ignoreArgs] }
      : { command: process.execPath, args: [...CLI_ARGS, 'record', '--out', file, ...redactArgs, '--', options.server.command, ...(options.server.args ?? [])] };
  const closers: (() => Promise<void>)[] = [];

  const replayTransport = (): Transport => {
    const server: Server = createMockServer(readExchanges(readJournalFile(file, true)), new Normalizer({ ignore: options.ignore ?? [] }));
    const [clientSide, serverSide] = createMemoryPair();
    void server.connect(serverSide);
    closers.push(() => server.close());
    return clientSide;
  };

  const recordTransport = (): Transport => {
    // An in-process proxy: the client's frames go to the real server and back, each journaled.
    const writer = new RecordingWriter(file, { transport: 'stdio', target: [options.server.command, ...(options.server.args ?? [])].join(' ') }, new Redactor(options.redact ?? []));
    const real = createStdioClientTransport({ command: options.server.command, args: options.server.args ?? [], ...(options.server.env && { env: options.server.env }), stderr: 'pipe' });
    const [clientSide, proxySide] = createMemoryPair();
    const subs = new Subscription();
    const value = (raw: unknown) => (typeof raw === 'string' ? JSON.parse(raw) : raw) as Frame;
    // Frames wait until the server process runs.
    let waiting: Frame[] | undefined = [];
    subs.add(
      proxySide.inbound$.subscribe((raw) => {
        if (raw instanceof OversizeFrame) return;
        const frame = value(raw);
        writer.frame('client', frame);
        if (waiting) waiting.push(frame);
        else real.send(frame);
      }),
    );
    subs.add(
      real.inbound$.subscribe((raw) => {
        if (raw instanceof OversizeFrame) return;
        const frame = value(raw);
        writer.frame('server', frame);
        proxySide.send(frame);
      }),
    );
    subs.add(
      real.state$.subscribe((s) => {
        if (s.phase === 'closed' || s.phase === 'failed') {
          writer.transport(s.phase, s.phase === 'failed' ? String((s as { error?: Error }).error?.message ?? 'failed') : undefined);
          void proxySide.close();
        }
      }),
    );
    const started = Promise.all([proxySide.start(), real.start()]).then(() => {
      writer.transport('open');
      const queued = waiting ?? [];
      waiting = undefined;
      for (const f of queued) real.send(f);
    });
    closers.push(async () => {
      await started.catch(() => undefined);
      await real.close().catch(() => undefined);
      subs.unsubscribe();
      writer.close();
    });
    return clientSide;
  };

  return {
    file,
    mode,
    command,
    // A cassette holds a session: the client speaks the legacy era to it (no era probe).
    transport: () => Object.assign(mode === 'replay' ? replayTransport() : recordTransport(), { legacyOnly: true }),
    async close() {
      for (const close of closers.splice(0)) await close();
    },
  };
}
