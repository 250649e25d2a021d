/**
 * Route: each request and notification to its handler by method, and out come the frames to
 * send back: one response per request, or one batch of responses per batch (none when the batch
 * held no requests). Handlers may answer later; their responses come out when ready.
 */
import { Observable, type OperatorFunction } from 'rxjs';
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

export function route(routes: Routes): OperatorFunction<Routable, JsonRpcResponse | JsonRpcBatch> {
  const one = (item: RoutableSingle, inBatch: boolean): Reply => {
    switch (item.kind) {
      case 'request':
        return routes.request(item.msg, inBatch);
      case 'notification':
        routes.notification(item.msg);
        return undefined;
      case 'invalid':
        return routes.invalid(item);
    }
  };

  return (source) =>
    new Observable<JsonRpcResponse | JsonRpcBatch>((subscriber) => {
      let waiting = 0;
      let sourceDone = false;
      // Complete only when the source has and every late answer is out.
      const settled = () => {
        waiting--;
        if (sourceDone && waiting === 0) subscriber.complete();
      };
      const later = (p: Promise<JsonRpcResponse | JsonRpcBatch | undefined>) => {
        waiting++;
        p.then(
          (r) => {
            if (r !== undefined && !subscriber.closed) subscriber.next(r);
            settled();
          },
          (e: unknown) => subscriber.error(e),
        );
      };
      const sub = source.subscribe({
        next(item) {
          if (item.kind !== 'batch') {
            const reply = one(item, false);
            if (reply === undefined) return;
            if (reply instanceof Promise) later(reply);
            else subscriber.next(reply);
            return;
          }
          const replies: Reply[] = [];
          let async = false;
          for (const x of item.items) {
            const r = one(x, true);
            if (r === undefined) continue;
            if (r instanceof Promise) async = true;
            replies.push(r);
          }
          if (replies.length === 0) return;
          const gather = (all: (JsonRpcResponse | undefined)[]) => {
            const batch = all.filter((r): r is JsonRpcResponse => r !== undefined);
            return batch.length > 0 ? batch : undefined;
          };
          if (async) later(Promise.all(replies).then(gather));
          else {
            const batch = gather(replies as (JsonRpcResponse | undefined)[]);
            if (batch) subscriber.next(batch);
          }
        },
        error: (e) => subscriber.error(e),
        complete: () => {
          sourceDone = true;
          if (waiting === 0) subscriber.complete();
        },
      });
      return () => sub.unsubscribe();
    });
}
