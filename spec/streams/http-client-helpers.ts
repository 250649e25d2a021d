// Shared bits of the HTTP client specs: a fetch that records what it sent, waiting for transport
// state details, and a client factory.
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { undiciFetch, type FetchLike } from '../../streams/http-fetch.js';
import type { TransportState } from '../../streams/transport.js';

export interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
  /** The parsed body (POSTs). */
  json: any;
  status?: number;
}

/** Wraps a fetch and records every request (method, URL, headers, body) and the status it got. */
export function capturingFetch(base: FetchLike = undiciFetch): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (input, init = {}) => {
    const body = typeof init.body === 'string' ? init.body : undefined;
    const entry: Sent = {
      method: init.method ?? 'GET',
      url: String(input),
      headers: new Headers(init.headers),
      body,
      json: body ? JSON.parse(body) : undefined,
    };
    sent.push(entry);
    const res = await base(input, init);
    entry.status = res.status;
    return res;
  };
  return { fetch, sent };
}

/** The POSTs whose body is a message with this method. */
export const posts = (sent: Sent[], method: string) => sent.filter((s) => s.method === 'POST' && s.json?.method === method);

/** Resolves with the next state whose `details.event` is `event` (or matches `pred`). */
export function nextDetails(state$: Observable<TransportState>, event: string, pred: (d: Record<string, unknown>) => boolean = () => true) {
  return firstValueFrom(state$.pipe(filter((s) => s.details?.event === event && pred(s.details))));
}

/** Every state the transport goes through, from now on. */
export function recordStates(state$: Observable<TransportState>): TransportState[] {
  const states: TransportState[] = [];
  state$.subscribe((s) => states.push(s));
  return states;
}

export function newClient(supportedVersions?: string[]): Client {
  return new Client({ era: 'legacy', info: { name: 'http-client-spec', version: '0.0.1' }, ...(supportedVersions && { supportedVersions }) });
}

/** Resolves once `pred` holds, checking after each turn of the event loop (waits for I/O, not for time). */
export async function until(pred: () => boolean, what: string, turns = 20_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (pred()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** The text of the first content item of a tools/call result. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  if (!content?.[0] || content[0].type !== 'text') throw new Error(`Not a text result: ${JSON.stringify(result)}`);
  return content[0].text!;
}

export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}
