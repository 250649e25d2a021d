/**
 * Replay of a 2026-07-28 client's journal: a fresh client in the request era, on a simulated
 * clock, fed the recorded inbound frames, timer firings and transport changes, making the
 * recorded calls, its input requests answered with the recorded answers (no handler or person
 * needed). Three things it does are compared with the recording as they come: the frames it
 * sends, its input-rounds machine's moves, and how each call ends.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { Client } from '../client.js';
import type { ModernReplayHooks } from '../client-core.js';
import { ManualClock } from '../clock.js';
import { McpError } from '../errors.js';
import type { Frame, JsonObject, RequestId } from '../jsonrpc/message.js';
import type { JournalEntry, RecordedLink, RecordedSessionOptions } from './entry.js';
import { drain, sameJson, type ReplayOptions, type ReplayResult } from './replay-run.js';
import { ReplayTransport } from './replay-transport.js';
import { Redactor } from '../shared/redactor.js';

/** What a modern replay needs of a journal's header. */
export interface ModernReplayHeader {
  startedAt?: number;
  session?: RecordedSessionOptions;
  link?: RecordedLink;
  /** The entries have their secrets hidden: what is replayed is hidden alike before it is compared. */
  redacted?: boolean;
}

/** The three things compared, each a list in the order it happened. */
type Stream = 'frame' | 'round' | 'result';

/** Recorded answers not yet asked for, and askers not yet answered, by `method key`. */
class RecordedAnswers {
  private readonly ready = new Map<string, { result?: JsonObject; error?: { message: string; code?: number } }[]>();
  private readonly waiting = new Map<string, ((a: { result?: JsonObject; error?: { message: string; code?: number } }) => void)[]>();

  ask(method: string, key: string): Promise<JsonObject> {
    const id = `${method} ${key}`;
    return new Promise<JsonObject>((resolve, reject) => {
      const settle = (a: { result?: JsonObject; error?: { message: string; code?: number } }) => {
        if (a.error) reject(a.error.code !== undefined ? new McpError(a.error.code, a.error.message) : new Error(a.error.message));
        else resolve(a.result ?? {});
      };
      const kept = this.ready.get(id)?.shift();
      if (kept) return settle(kept);
      const q = this.waiting.get(id) ?? [];
      q.push(settle);
      this.waiting.set(id, q);
    });
  }

  /** A recorded answer: to the handler waiting for it, or kept for the next ask. Whether someone was waiting. */
  give(method: string, key: string, answer: { result?: JsonObject; error?: { message: string; code?: number } }): boolean {
    const id = `${method} ${key}`;
    const settle = this.waiting.get(id)?.shift();
    if (settle) {
      settle(answer);
      return true;
    }
    const q = this.ready.get(id) ?? [];
    q.push(answer);
    this.ready.set(id, q);
    return false;
  }
}

/**
 * Replay a modern client's journal entries (a journal with `era: 'modern'`). Divergences name the
 * recorded entry (`firstDifference.seq`) and the last recorded input replayed before it showed
 * (`firstDifference.after`): for a changed inbound frame, that frame.
 */
export async function replayModern(header: ModernReplayHeader, entries: Iterable<JournalEntry>, options: ReplayOptions = {}): Promise<ReplayResult> {
  if (!header.session || !header.link) throw new Error('This journal has no session or link header (record with the `journal: true` option)');
  const clock = new ManualClock(header.startedAt ?? 0);
  const client = new Client({ ...header.session, clock, eraCache: false });
  const answers = new RecordedAnswers();
  let listen: JsonObject | undefined;
  const hooks: ModernReplayHooks = {
    probeId: header.link.probe,
    answerer: (method, _params, key) => answers.ask(method, key),
    listen: () => listen,
  };
  client.replaying = hooks;
  options.setup?.(client);

  const keep = options.keepFrames !== false;
  const recordedFrames: Frame[] = [];
  // Each stream is compared pairwise in order, as soon as both of a pair are known.
  const pending: Record<Stream, { replayed: unknown[]; recorded: { value: unknown; seq: number }[]; index: number }> = {
    frame: { replayed: [], recorded: [], index: 0 },
    round: { replayed: [], recorded: [], index: 0 },
    result: { replayed: [], recorded: [], index: 0 },
  };
  let compared = 0;
  let lastInput: number | undefined;
  let firstDifference: ReplayResult['firstDifference'];
  const compare = (stream: Stream, replayed: unknown, rec: { value: unknown; seq: number } | undefined) => {
    const p = pending[stream];
    if (firstDifference === undefined && !sameJson(replayed, rec?.value)) {
      firstDifference = { index: p.index, recorded: rec?.value as Frame | undefined, replayed: replayed as Frame | undefined, stream, ...(rec && { seq: rec.seq }), ...(lastInput !== undefined && { after: lastInput }) };
    }
    p.index++;
    compared++;
  };
  // A redacted journal's frames, rounds and outcomes are compared with the replayed ones redacted alike (the rules are deterministic).
  const redactor = header.redacted === true ? new Redactor() : undefined;
  const replayedOne = (stream: Stream, replayed: unknown) => {
    const value = redactor ? redactor.value(replayed) : replayed;
    const p = pending[stream];
    if (p.recorded.length > 0) compare(stream, value, p.recorded.shift());
    else p.replayed.push(value);
  };
  const recordedOne = (stream: Stream, value: unknown, seq: number) => {
    const p = pending[stream];
    if (p.replayed.length > 0) compare(stream, p.replayed.shift(), { value, seq });
    else p.recorded.push({ value, seq });
  };

  const transport = new ReplayTransport(keep, (frame) => replayedOne('frame', frame));
  // HTTP's exchange differs (no ping after the probe, a cancel closes the response stream): the replay transport looks the same.
  if (header.link.http) Object.assign(transport, { paramHeaders: undefined, closeRequestStream: () => true });
  client.inputRounds$.subscribe((e) => {
    const keys = e.inputRequests?.map((r) => r.key);
    replayedOne('round', { method: e.method, ...(e.name !== undefined && { name: e.name }), state: e.state, round: e.round, ...(keys && { keys }) });
  });
  const connected = client.connect(transport).catch(() => {});
  await drain();
  const aborts = new Map<RequestId, AbortController>();

  for (const entry of entries) {
    switch (entry.kind) {
      case 'out':
        if (keep) recordedFrames.push(entry.frame);
        recordedOne('frame', entry.frame, entry.seq);
        continue;
      case 'round': {
        const { seq: _s, t: _t, kind: _k, ...value } = entry;
        recordedOne('round', value, entry.seq);
        continue;
      }
      case 'result': {
        const { seq: _s, t: _t, kind: _k, ...value } = entry;
        recordedOne('result', value, entry.seq);
        continue;
      }
      case 'note':
        continue;
      case 'timer':
        lastInput = entry.seq;
        clock.fireNamed(entry.name);
        await drain();
        continue;
    }
    // An input: time moves to it, but never so far that a timer fires that the recording fired later.
    clock.advanceTo(Math.min(entry.t, clock.nextDue() - 1e-6));
    lastInput = entry.seq;
    switch (entry.kind) {
      case 'in':
        if ('frame' in entry) transport.push(entry.frame as object);
        else if ('text' in entry) transport.push(entry.text);
        // Too large or too deep: the link drops such a frame; nothing of it is kept to deliver.
        break;
      case 'transport':
        transport.setPhase(entry.phase, entry.error);
        break;
      case 'answer':
        answers.give(entry.method, entry.key, 'error' in entry ? { error: entry.error } : { result: entry.result });
        break;
      case 'call':
        switch (entry.op) {
          case 'request': {
            const id = entry.id;
            const ac = new AbortController();
            aborts.set(id, ac);
            const o = entry.options ?? {};
            client
              .request(entry.method, entry.params, {
                signal: ac.signal,
                ...(o.timeout !== undefined && { timeout: o.timeout }),
                ...(o.maxTotalTimeout !== undefined && { maxTotalTimeout: o.maxTotalTimeout }),
                ...(o.resetTimeoutOnProgress !== undefined && { resetTimeoutOnProgress: o.resetTimeoutOnProgress }),
                ...(o.progress && { onprogress: () => {} }),
                ...(o.fresh !== undefined && { fresh: o.fresh }),
                ...(o.trace !== undefined && { trace: o.trace }),
              })
              .then(
                (result) => replayedOne('result', { call: id, result }),
                (e: unknown) => replayedOne('result', { call: id, error: errorOf(e) }),
              )
              .finally(() => aborts.delete(id));
            break;
          }
          case 'abort':
            aborts.get(entry.id)?.abort(entry.reason);
            break;
          case 'listen':
            listen = entry.filter;
            client.refreshListenForReplay();
            break;
          case 'notify':
            try {
              client.notify(entry.method, entry.params);
            } catch {
              // It failed when recorded too, or the difference shows in the frames.
            }
            break;
          case 'close':
            void client.close();
            break;
        }
        break;
    }
    await drain();
  }
  await Promise.race([connected, drain()]);
  // What one side did and the other did not.
  for (const stream of ['frame', 'round', 'result'] as const) {
    for (const v of pending[stream].replayed) compare(stream, v, undefined);
    for (const r of pending[stream].recorded) compare(stream, undefined, r);
  }
  const outbound = transport.sent;
  return firstDifference
    ? { outbound, recorded: recordedFrames, matches: false, firstDifference, compared, session: client }
    : { outbound, recorded: recordedFrames, matches: true, compared, session: client };
}

/** An error as the journal keeps it (see the client's recording). */
function errorOf(e: unknown): { message: string; code?: number } {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? { message, code } : { message };
}
