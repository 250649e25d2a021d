/**
 * Replay of a server's journal of 2026-07-28 requests (`Server.journal`): a server built the way
 * the recorded one was (the user's factory, given a simulated clock) is handed the recorded
 * requests at their recorded times, the client going away where it went, and what it sends (each
 * request's notifications and answer, its machine's final state) is compared with the recording,
 * request by request. Sealed states and task ids are compared as opaque values (`opaque.ts`).
 * A timer the journal records (a request's progress flush) fires at its entry, between the
 * inputs it came between, not merely by time; the server's other timers fire by time.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { ManualClock, type Clock } from '../clock.js';
import type { Frame, JsonRpcRequest } from '../jsonrpc/message.js';
import type { Server } from '../server.js';
import type { JournalEntry } from './entry.js';
import type { Journal } from './journal.js';
import { OpaqueMap } from './opaque.js';
import { drain, type ReplayOptions, type ReplayResult } from './replay-run.js';
import { Redactor } from '../shared/redactor.js';

/** Builds the server to replay through, as the recorded one was built, on `clock` (pass it as the server's `clock`). */
export type ServerFactory = (options: { clock: Clock }) => Server | { readonly server: Server };

/** {@link replay} of a server's request journal: the factory that builds the server. */
export interface ServerReplayOptions extends Omit<ReplayOptions, 'setup' | 'answers'> {
  server: ServerFactory;
}

/** What a server replay found: as {@link ReplayResult}, with the replaying server in place of a session. */
export interface ServerReplayResult extends Omit<ReplayResult, 'session'> {
  server: Server;
}

/** Thrown for a server journal replayed without a factory (a server is the user's code: replay cannot build it). */
export class ServerFactoryMissingError extends Error {
  override readonly name = 'ServerFactoryMissingError';
}

type Output = { kind: 'out'; frame: Frame } | { kind: 'state'; state: string };

/** Replay a server's request journal (see the file comment). */
export async function replayServer(journal: Journal, options: ServerReplayOptions): Promise<ServerReplayResult> {
  if (typeof options?.server !== 'function') {
    throw new ServerFactoryMissingError('This is a server journal of 2026-07-28 requests: replay it with a factory that builds the server, replay(journal, { server: ({ clock }) => createMyServer({ clock }) })');
  }
  // The timers whose firings the journal holds fire at their entries only (see JournalHeader.timers).
  const timed = journal.timers;
  const clock = new ManualClock(journal.startedAt, timed === undefined || timed.length === 0 ? {} : { hold: (name) => timed.some((p) => name.startsWith(p)) });
  const made = options.server({ clock });
  const server = 'server' in made && typeof made.server === 'object' ? made.server : (made as Server);
  const redactor = journal.redacted ? new Redactor() : undefined;
  const keep = options.keepFrames !== false;
  const opaque = new OpaqueMap();

  // Per request: what the replaying server did, and where the comparison stands.
  const replayed = new Map<number, Output[]>();
  const cursor = new Map<number, number>();
  const aborts = new Map<number, AbortController>();
  const outbound: Frame[] = [];
  const recordedFrames: Frame[] = [];
  /** Recorded outputs not yet compared (their replayed counterpart had not come yet). */
  const waiting: { rq: number; entry: JournalEntry; output: Output }[] = [];
  let compared = 0;
  let lastInput: number | undefined;
  let firstDifference: ReplayResult['firstDifference'];

  // What the replaying server does, as its own request journal records it (the same tap as when recording).
  const numbers = new Map<number, number>();
  let feeding: number | undefined;
  const tapped = server.requestJournal.journal$.subscribe((e) => {
    const own = (e as { rq?: number }).rq;
    if (own === undefined) return;
    if (e.kind === 'in') {
      if (feeding !== undefined) numbers.set(own, feeding);
      return;
    }
    const rq = numbers.get(own);
    if (rq === undefined) return;
    if (e.kind === 'out') emit(rq, { kind: 'out', frame: e.frame });
    else if (e.kind === 'state') emit(rq, { kind: 'state', state: e.state });
  });
  const emit = (rq: number, output: Output) => {
    if (output.kind === 'out') {
      if (redactor) output = { kind: 'out', frame: redactor.value(output.frame) as Frame };
      if (keep) outbound.push(output.frame);
    }
    let list = replayed.get(rq);
    if (list === undefined) replayed.set(rq, (list = []));
    list.push(output);
  };
  const differ = (rec: { entry: JournalEntry; output: Output } | undefined, rep: Output | undefined) => {
    compared++;
    if (firstDifference !== undefined) return;
    const value = (o: Output | undefined) => (o === undefined ? undefined : o.kind === 'out' ? o.frame : ({ state: o.state } as unknown as Frame));
    firstDifference = {
      index: compared - 1,
      recorded: value(rec?.output),
      replayed: value(rep),
      stream: 'frame',
      ...(rec && { seq: rec.entry.seq }),
      ...(lastInput !== undefined && { after: lastInput }),
    };
  };
  /** Compare the recorded outputs whose replayed counterparts have come, in recorded order; `final`: the rest too. */
  const settle = (final: boolean) => {
    while (waiting.length > 0) {
      const w = waiting[0]!;
      const at = cursor.get(w.rq) ?? 0;
      const rep = replayed.get(w.rq)?.[at];
      if (rep === undefined && !final) return;
      waiting.shift();
      cursor.set(w.rq, at + 1);
      if (rep === undefined) {
        differ(w, undefined);
        continue;
      }
      const same = rep.kind === w.output.kind && (rep.kind === 'out' ? opaque.same((w.output as { frame: Frame }).frame, rep.frame) : rep.state === (w.output as { state: string }).state);
      if (same) compared++;
      else differ(w, rep);
    }
    if (!final) return;
    // What the replaying server did beyond the recording.
    for (const [rq, list] of replayed) for (let i = cursor.get(rq) ?? 0; i < list.length; i++) differ(undefined, list[i]);
  };
  /** Let the clock reach `t`, one timer at a time, what each started running before the next. */
  const advance = async (t: number) => {
    while (clock.nextDue() <= t) {
      clock.advanceTo(clock.nextDue());
      await drain();
    }
    clock.advanceTo(Math.max(t, clock.now()));
  };

  for (const entry of journal.entries) {
    const rq = (entry as { rq?: number }).rq;
    if (rq === undefined) continue;
    if (entry.kind === 'out' || entry.kind === 'state') {
      const output: Output = entry.kind === 'out' ? { kind: 'out', frame: entry.frame } : { kind: 'state', state: entry.state };
      if (entry.kind === 'out' && keep) recordedFrames.push(entry.frame);
      waiting.push({ rq, entry, output });
      continue;
    }
    // An input: what the server sent before it is compared first (a retry needs the state the replaying server sealed).
    await drain();
    settle(false);
    await advance(entry.t);
    lastInput = entry.seq;
    if (entry.kind === 'timer') {
      // At its place in the sequence, whatever else shares its millisecond.
      clock.fireNamed(entry.name);
    } else if (entry.kind === 'in' && 'frame' in entry) {
      const msg = opaque.substitute(entry.frame as JsonRpcRequest, (p) => server.requestJournal.tokenOf(p));
      const ac = new AbortController();
      aborts.set(rq, ac);
      // The server's request journal numbers the request as it arrives (synchronously): its number maps to the recorded one.
      feeding = rq;
      void server.core.answer(msg, { notify: () => {}, signal: ac.signal }).catch(() => {});
      feeding = undefined;
    } else if (entry.kind === 'cancel') {
      aborts.get(rq)?.abort(entry.reason);
    }
    await drain();
  }
  // Let what is still running end as far as the recording's last moment.
  const last = journal.entries.at(-1);
  if (last !== undefined) await advance(last.t);
  await drain();
  settle(true);
  tapped.unsubscribe();
  const base = { outbound, recorded: recordedFrames, compared, server };
  return firstDifference ? { ...base, matches: false, firstDifference } : { ...base, matches: true };
}
