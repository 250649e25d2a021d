/**
 * `inspect --serve`: the viewer on 127.0.0.1, following a recording as it grows (a session being
 * recorded by `record`, or a journal being written). New entries go to open pages over SSE with
 * the request and session states they changed.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from '../../http/listen-port.js';
import type { JournalEntry } from '../../journal/entry.js';
import type { CliContext } from '../cli-context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { parseJournalText, type JournalFile } from '../journal-file.js';
import { StateTracker } from '../session-states.js';
import { renderViewerPage, viewerData } from './page.js';
import { printable } from '../printable.js';

class FollowedJournal {
  file: JournalFile | undefined;
  tracker: StateTracker | undefined;
  private offset = 0;
  private rest = '';
  readonly listeners = new Set<(from: number) => void>();
  constructor(readonly path: string) {}

  /** Read what was appended since the last poll. */
  poll(): void {
    if (!existsSync(this.path)) return;
    const size = statSync(this.path).size;
    if (size <= this.offset) return;
    const fd = openSync(this.path, 'r');
    const buf = Buffer.alloc(size - this.offset);
    readSync(fd, buf, 0, buf.length, this.offset);
    closeSync(fd);
    this.offset = size;
    const text = this.rest + buf.toString('utf8');
    const cut = text.lastIndexOf('\n') + 1;
    this.rest = text.slice(cut);
    const complete = text.slice(0, cut);
    if (complete === '') return;
    const before = this.file?.entries.length ?? 0;
    if (!this.file) {
      this.file = parseJournalText(complete, this.path);
      this.tracker = new StateTracker(this.file.header);
      for (const e of this.file.entries) this.tracker.push(e);
    } else {
      for (const line of complete.split('\n')) {
        if (line.trim() === '') continue;
        try {
          const e = JSON.parse(line) as JournalEntry;
          this.file.entries.push(e);
          this.tracker!.push(e);
        } catch {
          this.file.problems.push('a line is not JSON; skipped');
        }
      }
    }
    for (const l of this.listeners) l(before);
  }

  /** What a page that has `from` entries is missing. */
  update(from: number): unknown {
    const t = this.tracker!;
    return {
      entries: this.file!.entries.slice(from),
      entryRequest: t.entryRequest.slice(from),
      session: t.session.filter(([i]) => i >= from),
      requests: t.requests.filter((r) => r.start >= from || r.end === undefined || r.end >= from),
      sessionless: t.sessionless,
    };
  }
}

export async function serveLive(path: string, port: number, ctx: CliContext): Promise<number> {
  const followed = new FollowedJournal(path);
  try {
    followed.poll();
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`Cannot read ${path}: ${(e as Error).message}`, ExitCode.BadInput);
  }
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!followed.file) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end(`Waiting for ${path} to get its header line; reload in a moment.\n`);
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(renderViewerPage(viewerData(followed.file, followed.tracker!, true)));
      return;
    }
    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      let sent = Number(url.searchParams.get('from') ?? followed.file.entries.length);
      const push = () => {
        const n = followed.file!.entries.length;
        if (n <= sent) return;
        res.write(`data: ${printable(followed.update(sent))}\n\n`);
        sent = n;
      };
      followed.listeners.add(push);
      push();
      req.on('close', () => followed.listeners.delete(push));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  };
  let listening;
  try {
    listening = await listen(handler, { port, logger: false });
  } catch (e) {
    throw new CliError(`Cannot listen on port ${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}. Choose another --port.`, ExitCode.Connection);
  }
  ctx.stderr.write(`Viewer for ${path} at http://127.0.0.1:${listening.port}/ (following the file; Ctrl-C stops)\n`);
  const timer = setInterval(() => {
    try {
      followed.poll();
    } catch (e) {
      ctx.stderr.write(`warning: ${(e as Error).message}\n`);
    }
  }, 150);
  await new Promise<void>((done) => {
    const stop = () => {
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stop);
      done();
    };
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stop);
  });
  clearInterval(timer);
  await listening.close();
  return ExitCode.Ok;
}
