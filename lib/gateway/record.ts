/**
 * Recording at the gateway (`record: DIR`, `serve --record DIR`): both sides of every bridged
 * exchange, as journals `mcp-actors inspect` reads. Each downstream session is journaled on the
 * server side (`downstream-<n>-<label>.jsonl`, role server) and each upstream client, either era,
 * on the client side (`upstream-<n>-<server>.jsonl`, role client; a restart or a per-session
 * upstream is a new file). Entries carry the gateway clock's time, so a downstream request and
 * the upstream requests it caused line up across files. A file is written when its session ends
 * (the gateway's `close()` ends them all). A 2026-07-28 downstream request has no session: the
 * gateway's server journals those requests (`journal: true`), written at close as
 * `downstream-modern.jsonl` (role server, era modern). Secrets are hidden as every journal hides them.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Journal } from '../journal/journal.js';
import type { Session } from '../session/session.js';

/** Names stay file-safe whatever a server or session is called. */
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);

export class GatewayRecorder {
  private count = 0;
  private modernWritten = false;
  /** Files written so far (full paths), in order. */
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

  /** Journal `session` (whose `journal` option is on) into its own file when it ends. */
  track(session: Session, side: 'downstream' | 'upstream', name: string): void {
    const file = join(this.dir, `${side}-${++this.count}-${safe(name)}.jsonl`);
    session.onEnd(() => this.write(file, session.journal));
  }

  /**
   * Write the server's journal of its 2026-07-28 requests (`server.journal`), once its requests
   * are over (at the gateway's close). Written whole rather than entry by entry: the journal
   * redacts as it keeps, its live stream does not.
   */
  writeModern(journal: Journal | undefined): void {
    // A second close() writes nothing again.
    if (this.modernWritten) return;
    this.modernWritten = true;
    this.write(join(this.dir, 'downstream-modern.jsonl'), journal);
  }

  private write(file: string, journal: Journal | undefined): void {
    // A session that never initialized (or a server no modern caller reached) has nothing worth reading.
    if (journal === undefined || journal.entries.length === 0) return;
    try {
      writeFileSync(file, journal.toJSONL(), { mode: 0o600, flag: 'wx' });
      this.written.push(file);
    } catch (e) {
      // A full disk must not take the gateway down; say so once per file.
      process.emitWarning(`record: cannot write ${file}: ${(e as Error).message}`);
    }
  }
}
