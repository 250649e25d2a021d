/**
 * Recording at the gateway (`record: DIR`, `serve --record DIR`): both sides of every bridged
 * exchange, as journals `mcp-actors inspect` reads. Each downstream session is journaled on the
 * server side (`downstream-<n>-<label>.jsonl`, role server) and each upstream client, either era,
 * on the client side (`upstream-<n>-<server>.jsonl`, role client; a restart or a per-session
 * upstream is a new file). Entries carry the gateway clock's time, so a downstream request and
 * the upstream requests it caused line up across files. Each file is written as its journal is
 * recorded, entry by entry (see record-file.ts: the write and fsync policy), so a gateway that is
 * killed leaves journals readable up to its last exchange. A 2026-07-28 downstream request has no
 * session: the gateway's server journals those requests (`journal: true`) into
 * `downstream-modern.jsonl` (role server, era modern), written alike. Secrets are hidden as every
 * journal hides them; files are created new, mode 0600, never overwritten.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import type { JournalEntry } from '../journal/entry.js';
import type { Journal } from '../journal/journal.js';
import type { Session } from '../session/session.js';
import { JournalFile } from './record-file.js';

/** Names stay file-safe whatever a server or session is called. */
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);

/** What the recorder follows: a journal kept and its entries as they are recorded. */
interface JournalSource {
  readonly journal: Journal | undefined;
  readonly journal$: { subscribe(observer: { next: (e: JournalEntry) => void; complete: () => void }): Subscription };
}

export class GatewayRecorder {
  private count = 0;
  private modernTracked = false;
  /** Files being written, closed when their journal ends or at {@link close}. */
  private readonly open = new Set<{ file: JournalFile; sub: Subscription }>();
  /** Files written so far (full paths), in order of creation. */
  readonly written: string[] = [];

  /** Throws when `dir` cannot be made or already holds journals (an older recording is never overwritten). */
  constructor(readonly dir: string) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new Error(`record: cannot create ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
    }
    if (readdirSync(dir).some((f) => f.endsWith('.jsonl'))) throw new Error(`record: ${dir} already holds journals; give a new or empty directory`);
  }

  /** Journal `session` (whose `journal` option is on) into its own file as it goes. */
  track(session: Session, side: 'downstream' | 'upstream', name: string): void {
    this.follow(join(this.dir, `${side}-${++this.count}-${safe(name)}.jsonl`), session);
  }

  /** Journal the server's 2026-07-28 requests (`server.journal`, `server.journal$`) into `downstream-modern.jsonl` as they go. */
  trackModern(server: JournalSource): void {
    if (this.modernTracked) return;
    this.modernTracked = true;
    this.follow(join(this.dir, 'downstream-modern.jsonl'), server);
  }

  /** Close every file still open (the gateway's close; sessions ended have closed theirs). */
  close(): void {
    for (const item of this.open) {
      item.sub.unsubscribe();
      item.file.close();
    }
    this.open.clear();
  }

  private follow(path: string, source: JournalSource): void {
    const journal = source.journal;
    // Nothing kept (the journal option off): nothing to write.
    if (journal === undefined) return;
    const file = new JournalFile(path, journal, (p) => this.written.push(p));
    const item = { file, sub: undefined as unknown as Subscription };
    this.open.add(item);
    item.sub = source.journal$.subscribe({
      next: (e) => file.entry(e),
      complete: () => {
        file.close();
        this.open.delete(item);
      },
    });
  }
}
