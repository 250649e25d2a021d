/**
 * What an McpServer notices about how it is used and reports without failing anything: advice
 * on a SHOULD of the protocol the server's own code does not follow. Each kind is reported once
 * per server on `diagnostics$`; when nobody is subscribed, on Node's warning channel (stderr,
 * never stdout, which a stdio transport owns).
 */
import { Subject, type Observable } from 'rxjs';
import { emitWarning } from '../host-warning.js';

/** One piece of advice: what was seen and what to do about it. */
export interface ServerDiagnostic {
  kind: 'embedded-resource-without-resources-capability';
  message: string;
  detail?: unknown;
}

export class ServerDiagnostics {
  private readonly subject = new Subject<ServerDiagnostic>();
  private readonly reported = new Set<string>();
  /** Each diagnostic, the first time its kind is seen. */
  readonly diagnostics$: Observable<ServerDiagnostic> = this.subject.asObservable();

  /** Report `diagnostic` unless its kind was reported already; returns whether it was reported now. */
  once(diagnostic: ServerDiagnostic): boolean {
    if (this.reported.has(diagnostic.kind)) return false;
    this.reported.add(diagnostic.kind);
    if (this.subject.observed) this.subject.next(diagnostic);
    else emitWarning(diagnostic.message, { type: 'McpServerWarning', code: diagnostic.kind });
    return true;
  }
}
