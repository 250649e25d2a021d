/**
 * The audit trail of a server's tasks: each creation, each end (completed, failed, cancelled,
 * expired), each retrieval (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/update`,
 * `tasks/cancel`) and each refused one (an unknown, expired or foreign id, a rate limit), with the
 * caller's identity. Log it, or watch it for what looks wrong (many refused lookups by one
 * caller, a poll storm). Events are made only while `audit$` is observed.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#audit-and-logging
 */
import { Subject, type Observable } from 'rxjs';

export interface TaskAuditEvent {
  type: 'created' | 'ended' | 'expired' | 'retrieved' | 'refused';
  /** On the server's clock (ms since the epoch). */
  at: number;
  /** Undefined for `tasks/list`, and for a refusal without a usable id. */
  taskId?: string;
  /**
   * Who: the authorization's identity (`sub:…`, `client:…`), else the session (`session:…`), or
   * `anonymous` (modern requests without authentication). Never a token.
   */
  owner: string;
  /** The request: `tools/call` for `created`, the `tasks/*` method for `retrieved` and `refused`. */
  method?: string;
  /** The status, for `ended` (and the status the caller saw, for `retrieved`). */
  status?: string;
  /** Why, for `refused`. */
  reason?: string;
}

export class TaskAudit {
  private readonly subject = new Subject<TaskAuditEvent>();
  readonly events$: Observable<TaskAuditEvent> = this.subject.asObservable();

  constructor(private readonly now: () => number) {}

  /** Record an event (made only when someone listens). */
  emit(make: () => Omit<TaskAuditEvent, 'at'>): void {
    if (this.subject.observed) this.subject.next({ at: this.now(), ...make() });
  }

  complete(): void {
    this.subject.complete();
  }
}
