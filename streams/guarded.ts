/**
 * Observables whose subscribers cannot hurt anyone else. RxJS catches an exception thrown by an
 * observer's `next`/`error`/`complete` (or an `error` nobody handles) and rethrows it on a
 * timer, as an uncaught exception: one bad observer of `frames$` would end the process and every
 * session in it. A {@link GuardedObservable} wraps each observer its user subscribes with, so an
 * exception stays with that observer: it is reported (to the owner's reporter, by default on
 * Node's warning channel, stderr) and the observer stays subscribed. Operators applied with
 * `pipe` keep the guard (`lift` returns a guarded observable), so
 * `frames$.pipe(map(f)).subscribe(g)` is guarded too, including an error thrown by `f`.
 *
 * This does not change the global RxJS configuration of the user's application.
 */
import { Observable, Subscriber, type Observer, type Operator, type Subscription } from 'rxjs';
import { emitWarning } from '../lib/host-warning.js';

/** An exception thrown by one observer. */
export interface ObserverFault {
  /** Which observable, e.g. `session.frames$`. */
  observable: string;
  /** Which callback threw; `unhandled-error` is an error notification the observer had no handler for. */
  callback: 'next' | 'error' | 'complete' | 'unhandled-error';
  error: unknown;
  /** Whether this is the first fault of this subscription (warnings are given once per subscription). */
  first: boolean;
}

export type ObserverFaultReporter = (fault: ObserverFault) => void;

/** The warning type and code of observer faults on Node's warning channel. */
export const OBSERVER_FAULT_WARNING = { type: 'McpActorsObserverError', code: 'MCP_ACTORS_OBSERVER_ERROR' } as const;

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The default reporter: one process warning per faulty subscription (stderr, never stdout). */
export function warnObserverFault(fault: ObserverFault): void {
  if (!fault.first) return;
  emitWarning(
    `An observer of ${fault.observable} threw in ${fault.callback}: ${describe(fault.error)}. ` +
      'The error was isolated (the observer stays subscribed, nothing else is affected); fix the observer.',
    OBSERVER_FAULT_WARNING,
  );
}

/** The guard around one user observer: each callback in try/catch, faults reported. */
class GuardObserver<T> implements Observer<T> {
  private faulted = false;

  constructor(
    private readonly target: Partial<Observer<T>>,
    private readonly name: string,
    private readonly report: ObserverFaultReporter,
  ) {}

  next(value: T): void {
    const t = this.target;
    if (t.next === undefined) return;
    try {
      t.next(value);
    } catch (e) {
      this.fault('next', e);
    }
  }

  error(err: unknown): void {
    const t = this.target;
    if (t.error === undefined) {
      this.fault('unhandled-error', err);
      return;
    }
    try {
      t.error(err);
    } catch (e) {
      this.fault('error', e);
    }
  }

  complete(): void {
    const t = this.target;
    if (t.complete === undefined) return;
    try {
      t.complete();
    } catch (e) {
      this.fault('complete', e);
    }
  }

  private fault(callback: ObserverFault['callback'], error: unknown): void {
    const first = !this.faulted;
    this.faulted = true;
    try {
      this.report({ observable: this.name, callback, error, first });
    } catch {
      // A reporter that throws (a diagnostics observer, say) must not undo the isolation.
    }
  }
}

const isSubscriber = (v: unknown): v is Subscriber<unknown> => v instanceof Subscriber;

/** Partial observer from the three forms `subscribe` accepts. */
function toObserver<T>(
  observerOrNext: Partial<Observer<T>> | ((value: T) => void) | null | undefined,
  error: ((e: unknown) => void) | null | undefined,
  complete: (() => void) | null | undefined,
): Partial<Observer<T>> {
  if (observerOrNext !== null && typeof observerOrNext === 'object') {
    const o = observerOrNext;
    // Called as methods so that `this` is the user's observer, as RxJS does.
    return {
      next: o.next === undefined ? undefined : (v: T) => o.next!(v),
      error: o.error === undefined ? undefined : (e: unknown) => o.error!(e),
      complete: o.complete === undefined ? undefined : () => o.complete!(),
    };
  }
  return {
    next: observerOrNext ?? undefined,
    error: error ?? undefined,
    complete: complete ?? undefined,
  };
}

/** An observable whose user observers are isolated (see the module comment). */
export class GuardedObservable<T> extends Observable<T> {
  constructor(
    subscribe: ((this: Observable<T>, subscriber: Subscriber<T>) => unknown) | undefined,
    private readonly observableName: string,
    private readonly reporter: ObserverFaultReporter,
  ) {
    super(subscribe as ConstructorParameters<typeof Observable<T>>[0]);
  }

  /** Operators keep the guard: what `pipe` returns is guarded as well. */
  override lift<R>(operator?: Operator<T, R>): Observable<R> {
    const lifted = new GuardedObservable<R>(undefined, this.observableName, this.reporter);
    lifted.source = this;
    lifted.operator = operator;
    return lifted;
  }

  override subscribe(
    observerOrNext?: Partial<Observer<T>> | ((value: T) => void) | null,
    error?: ((e: unknown) => void) | null,
    complete?: (() => void) | null,
  ): Subscription {
    // Subscribers come from operators, `firstValueFrom` and the like: they handle their own
    // errors. Only what a user hands to `subscribe` is wrapped.
    if (isSubscriber(observerOrNext)) return super.subscribe(observerOrNext as Subscriber<T>);
    return super.subscribe(new GuardObserver<T>(toObserver(observerOrNext, error, complete), this.observableName, this.reporter));
  }
}

/**
 * `source` with its observers isolated: an exception one of them throws is given to `report`
 * (default: one process warning per subscription) instead of ending the process.
 */
export function guarded<T>(source: Observable<T>, name: string, report: ObserverFaultReporter = warnObserverFault): Observable<T> {
  return new GuardedObservable<T>((subscriber) => source.subscribe(subscriber), name, report);
}
