/**
 * A broadcast channel whose Subject exists only once someone subscribes: most sessions never
 * have an observer on most of their streams, and an idle session should cost little.
 */
import { Observable, Subject } from 'rxjs';

export class Channel<T> {
  private subject: Subject<T> | undefined;
  private done = false;

  /** Whether anyone listens now (so callers can skip building a value). */
  get observed(): boolean {
    return this.subject?.observed ?? false;
  }

  next(value: T): void {
    this.subject?.next(value);
  }

  complete(): void {
    this.done = true;
    this.subject?.complete();
  }

  /** A new observable of the channel; subscribing after completion completes at once. */
  asObservable(): Observable<T> {
    return new Observable<T>((subscriber) => {
      if (this.done) {
        subscriber.complete();
        return;
      }
      return (this.subject ??= new Subject<T>()).subscribe(subscriber);
    });
  }
}
