/**
 * Route: each request and notification to its handler by method, and out come the frames to
 * send back: one response per request, or one batch of responses per batch (none when the batch
 * held no requests). Handlers may answer later; their responses come out when ready.
 */
import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import type {
  JsonRpcBatch,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../lib/jsonrpc/message.js';
import type { InvalidInbound } from './inbound.js';
import type { Routable, RoutableSingle } from './correlate.js';

/** A response now, a response later, or nothing (a cancelled request, say). */
export type Reply = JsonRpcResponse | Promise<JsonRpcResponse | undefined> | undefined;

export interface Routes {
  request(msg: JsonRpcRequest, inBatch: boolean): Reply;
  notification(msg: JsonRpcNotification): void;
  /** A frame that failed validation: the error to send back, if any. */
  invalid(item: InvalidInbound): JsonRpcResponse | undefined;
}

/** What routing one frame gives back: a frame to send now, one later, or nothing. */
export type Routed = JsonRpcResponse | JsonRpcBatch | Promise<JsonRpcResponse | JsonRpcBatch | undefined> | undefined;

/** Route one frame (a single message or a batch) and collect what must be sent back. */
export function routeOne(item: Routable, routes: Routes): Routed {
  if (item.kind !== 'batch') return routeSingle(item, routes, false);
  const replies: Reply[] = [];
  let later = false;
  for (const x of item.items) {
    const r = routeSingle(x, routes, true);
    if (r === undefined) continue;
    if (r instanceof Promise) later = true;
    replies.push(r);
  }
  if (replies.length === 0) return undefined;
  return later ? Promise.all(replies).then(gatherBatch) : gatherBatch(replies as (JsonRpcResponse | undefined)[]);
}

function routeSingle(item: RoutableSingle, routes: Routes, inBatch: boolean): Reply {
  switch (item.kind) {
    case 'request':
      return routes.request(item.msg, inBatch);
    case 'notification':
      routes.notification(item.msg);
      return undefined;
    case 'invalid':
      return routes.invalid(item);
  }
}

/** A batch is answered by one batch of its responses, or by nothing when it had no requests. */
function gatherBatch(all: (JsonRpcResponse | undefined)[]): JsonRpcBatch | undefined {
  const batch = all.filter((r): r is JsonRpcResponse => r !== undefined);
  return batch.length > 0 ? batch : undefined;
}

/**
 * Emits each routed frame's replies as they become ready; completes once the source has and
 * every late answer is out.
 */
export function route(routes: Routes): OperatorFunction<Routable, JsonRpcResponse | JsonRpcBatch> {
  return (source) =>
    new Observable<JsonRpcResponse | JsonRpcBatch>((subscriber) => {
      const replies = new ReplyEmitter(subscriber);
      const sub = source.subscribe({
        next: (item) => replies.emit(routeOne(item, routes)),
        error: (e) => subscriber.error(e),
        complete: () => replies.sourceDone(),
      });
      return () => sub.unsubscribe();
    });
}

/** Hands replies to a subscriber now or when their promise settles, and completes after the last. */
export class ReplyEmitter {
  private waiting = 0;
  private done = false;

  constructor(private readonly subscriber: Subscriber<JsonRpcResponse | JsonRpcBatch>) {}

  emit(routed: Routed): void {
    if (routed === undefined) return;
    if (!(routed instanceof Promise)) {
      this.subscriber.next(routed);
      return;
    }
    this.waiting++;
    routed.then(
      (r) => {
        if (r !== undefined && !this.subscriber.closed) this.subscriber.next(r);
        if (--this.waiting === 0 && this.done) this.subscriber.complete();
      },
      (e: unknown) => this.subscriber.error(e),
    );
  }

  sourceDone(): void {
    this.done = true;
    if (this.waiting === 0) this.subscriber.complete();
  }
}
