/** `mcp-actors replay FILE --as server | --as client`: a recording served as a mock server, or a live server verified against it. */
import { listen } from '../http/listen-port.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createStreamableHttpHandler } from '../server-bindings/streamable-http-server.js';
import { int, type Parsed } from './args.js';
import type { CliContext } from './cli-context.js';
import { CliError, ExitCode } from './exit-codes.js';
import { short } from './format.js';
import type { JournalFile } from './journal-file.js';
import { createMockServer } from './mock-server.js';
import type { Normalizer } from './normalize.js';
import { readExchanges } from './recorded-exchanges.js';
import { resolveTarget, transportFor } from './target.js';
import { verify } from './verify.js';

export async function serve(file: JournalFile, normalizer: Normalizer, p: Parsed, ctx: CliContext): Promise<number> {
  let server;
  try {
    server = createMockServer(readExchanges(file), normalizer, { realtime: p.values.fast !== true, onRequest: (method, matched) => !matched && ctx.stderr.write(`${ctx.errStyle.yellow('not recorded:')} ${method}\n`) });
  } catch (e) {
    throw new CliError(`${file.path}: ${(e as Error).message}`, ExitCode.BadInput);
  }
  const port = int(p, 'port', 'replay');
  const stopped = new Promise<void>((done) => {
    const stop = () => {
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stop);
      done();
    };
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stop);
  });
  if (port === undefined) {
    const session = await server.connect(createStdioServerTransport({ stdin: ctx.stdin as NodeJS.ReadStream, stdout: ctx.stdout as NodeJS.WriteStream }));
    await Promise.race([stopped, new Promise<void>((done) => session.state$.subscribe({ complete: done }))]);
    await server.close();
    return ExitCode.Ok;
  }
  const handler = createStreamableHttpHandler(server);
  let listening;
  try {
    listening = await listen(handler, { port, logger: false });
  } catch (e) {
    throw new CliError(`Cannot listen on port ${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}. Choose another --port.`, ExitCode.Connection);
  }
  ctx.stderr.write(`Serving ${file.path} as a mock server at ${listening.url} (Ctrl-C stops)\n`);
  await stopped;
  await listening.close();
  return ExitCode.Ok;
}

export async function verifyLive(file: JournalFile, normalizer: Normalizer, p: Parsed, ctx: CliContext): Promise<number> {
  const target = resolveTarget(p, 'replay');
  const s = ctx.style;
  const json = p.values.json === true;
  const report = await verify(readExchanges(file), transportFor(target, ctx.stderr), normalizer, {
    timeoutMs: int(p, 'timeout', 'replay') ?? 30000,
    onResult: (seq, method, diffs, subject) => {
      if (json) return;
      ctx.stdout.write(`${diffs.length ? s.red('✗') : s.green('✓')} #${seq} ${method}${subject !== undefined ? ' ' + subject : ''}\n`);
      for (const d of diffs) ctx.stdout.write(`    ${s.bold(d.path)}\n      recorded: ${s.dim(short(d.recorded))}\n      live:     ${short(d.live)}\n`);
    },
  }).catch((e: Error) => {
    throw new CliError(`Verifying against ${target.label} failed: ${e.message}`, ExitCode.Connection);
  });
  if (json) ctx.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else {
    const extra = report.different.filter((d) => d.seq < 0);
    for (const d of extra) ctx.stdout.write(`${s.red('✗')} the live server sent ${d.method}, which the recording does not answer\n`);
    const n = report.different.length;
    ctx.stdout.write(n ? s.red(`${n} difference${n === 1 ? '' : 's'} in ${report.requests} requests\n`) : s.green(`${report.requests} requests, no differences after normalization\n`));
  }
  return report.different.length ? ExitCode.Difference : ExitCode.Ok;
}
