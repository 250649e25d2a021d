/** `mcp-actors record`: a transparent recording proxy, stdio or HTTP. */
import { openSync } from 'node:fs';
import { resolve } from 'node:path';
import { int, list, parseCommand, str } from '../args.js';
import type { Command } from '../cli-context.js';
import { CliError, EXIT_CODES_HELP, ExitCode, UsageError } from '../exit-codes.js';
import { proxyHttp } from '../proxy-http.js';
import { proxyStdio } from '../proxy-stdio.js';
import { RecordingWriter } from '../recording.js';
import { Redactor } from '../../shared/redactor.js';
import { Tap } from '../tap-handover.js';
import { recordInProcess } from '../tap-stdio.js';

const USAGE = `Usage: mcp-actors record --out FILE [--in-process] [--redact KEY ...] -- SERVER_COMMAND [ARGS ...]
       mcp-actors record --out FILE --target URL [--port N] [--host 127.0.0.1] [--redact KEY ...]

A transparent proxy that journals every frame in both directions, with timing, to FILE (JSONL,
the mcp-actors journal format). Secrets are redacted before anything is written: Authorization
and Cookie headers, values of token/secret/password/api-key/credential fields, Bearer and Basic
credentials inside strings, and the keys given with --redact.

stdio: configure your client (IDE, agent) to launch this command in place of the server:
  "command": "npx", "args": ["mcp-actors", "record", "--out", "session.jsonl", "--", "node", "server.js"]
It exits with the server's exit code; what was recorded is kept if the server dies.
--in-process (Node.js servers: node, npx, tsx...): instead of a process between client and
server, the recorder rides along inside the server's process (preloaded through NODE_OPTIONS):
the server's thread only copies each frame, a worker thread journals it, so recording costs a
round trip a few percent at most. A server killed with SIGKILL loses its last 20 ms of frames;
writes that bypass process.stdout are not seen.

HTTP: point your client at http://127.0.0.1:PORT/<the target's path>; requests are forwarded to
the target (Streamable HTTP or legacy SSE). Ctrl-C stops recording.

Options:
  --out FILE       where the recording goes (overwritten)
  --target URL     the HTTP server to proxy to
  --port N         port to listen on (default 0: a free one, printed on stderr)
  --host ADDR      interface to bind (default 127.0.0.1)
  --in-process     (stdio, Node.js servers) record inside the server's process: no extra hop
  --redact KEY     also hide values of fields or headers named KEY (repeatable)
  -h, --help       this help

${EXIT_CODES_HELP}`;

export const recordCommand: Command = {
  name: 'record',
  summary: 'record a session through a stdio or HTTP proxy (secrets redacted)',
  async run(argv, ctx) {
    const p = parseCommand(
      { name: 'record', summary: '', usage: USAGE, options: { out: { type: 'string', short: 'o' }, target: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, redact: { type: 'string', multiple: true }, 'in-process': { type: 'boolean' } }, positionals: false },
      argv,
    );
    if (p.help) {
      ctx.stdout.write(USAGE + '\n');
      return ExitCode.Ok;
    }
    const out = str(p, 'out');
    if (!out) throw new UsageError('Say where the recording goes: --out FILE', 'record');
    const target = str(p, 'target');
    if (target === undefined && p.rest.length === 0) throw new UsageError('Give the server: -- SERVER_COMMAND [ARGS] (stdio) or --target URL (HTTP)', 'record');
    if (target !== undefined && p.rest.length > 0) throw new UsageError('Give --target URL or a server command after --, not both', 'record');
    const redactor = new Redactor(list(p, 'redact'));
    const path = resolve(ctx.cwd, out);
    if (p.values['in-process'] === true) {
      if (target !== undefined) throw new UsageError('--in-process records a stdio server (-- SERVER_COMMAND), not --target', 'record');
      return recordInProcess({ command: p.rest[0]!, args: p.rest.slice(1), out: path, redact: list(p, 'redact'), redactor, stderr: ctx.stderr });
    }
    const cannotWrite = (e: unknown) => new CliError(`Cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.BadInput);
    if (target === undefined) {
      let tap: Tap;
      try {
        tap = new Tap({ out: path, redact: list(p, 'redact'), target: p.rest.join(' '), startedAt: performance.timeOrigin + performance.now(), inProcess: false }, openSync(path, 'w'));
      } catch (e) {
        throw cannotWrite(e);
      }
      try {
        return await proxyStdio({ command: p.rest[0]!, args: p.rest.slice(1), tap, stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr });
      } finally {
        tap.close();
      }
    }
    let writer: RecordingWriter;
    try {
      writer = new RecordingWriter(path, { transport: 'http', target }, redactor);
    } catch (e) {
      throw cannotWrite(e);
    }
    let url: URL;
    try {
      url = new URL(target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    } catch {
      writer.close();
      throw new UsageError(`--target needs an http(s) URL; got ${JSON.stringify(target)}`, 'record');
    }
    const port = int(p, 'port', 'record') ?? 0;
    let proxy;
    try {
      proxy = await proxyHttp(url, port, str(p, 'host') ?? '127.0.0.1', writer);
    } catch (e) {
      writer.close();
      throw new CliError(`Cannot listen on port ${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}. Choose another --port.`, ExitCode.Connection);
    }
    const local = `http://127.0.0.1:${proxy.listening.port}${url.pathname}${url.search}`;
    ctx.stderr.write(`Recording to ${path}\nPoint your client at ${local} (forwarded to ${url.href}). Ctrl-C stops.\n`);
    await new Promise<void>((done) => {
      const stop = () => {
        for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stop);
        done();
      };
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stop);
    });
    writer.transport('closed');
    await proxy.close();
    writer.close();
    ctx.stderr.write(`Recorded ${writer.entries} entries to ${path}\n`);
    return ExitCode.Ok;
  },
};
