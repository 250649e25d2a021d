/**
 * Which list changes a session has not seen. A session lists tools, prompts and resources after
 * it initializes, so a change made before then (tools registered just before `connect`, the
 * usual pattern) is already in its first listing: telling it `list_changed` would be noise.
 * Each change of any list takes the next number; each session remembers the number current when
 * it began operating; a change notifies a session only when its number is higher.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 */
import type { Server, ServerSession } from '../server.js';

export class ListEpochs {
  private seq = 0;
  private readonly since = new WeakMap<ServerSession, number>();

  constructor(server: Server) {
    // One subscription for the server's lifetime (it ends with the process, as the Server does).
    server.sessions$.subscribe((session) => {
      session.whenOperating().then(
        () => this.since.set(session, this.seq),
        () => {},
      );
    });
  }

  /** A list changed: the number of this change. */
  changed(): number {
    return ++this.seq;
  }

  /** Whether change `change` happened after `session` began operating (so it must be told). */
  isNewTo(session: ServerSession, change: number): boolean {
    const since = this.since.get(session);
    return since !== undefined && change > since;
  }
}

const epochs = new WeakMap<Server, ListEpochs>();

/** The change numbering shared by every list of `server`. */
export function listEpochsOf(server: Server): ListEpochs {
  let e = epochs.get(server);
  if (e === undefined) {
    e = new ListEpochs(server);
    epochs.set(server, e);
  }
  return e;
}
