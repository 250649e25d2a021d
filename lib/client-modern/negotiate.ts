/**
 * Finding the server's era on a fresh transport (revision 2026-07-28, versioning): a
 * `server/discover` probe naming the newest modern revision, walked through
 * `versionNegotiationMachine`.
 *
 * - A `DiscoverResult` means modern; `UnsupportedProtocolVersionError` (-32022) means modern with
 *   other versions: retried once with the first of its `supported` the client speaks.
 * - Any other error means legacy, whatever its code (legacy servers answer -32601, -32602, or an
 *   HTTP 400/404/405 without a modern error body). A failed authorization is not era evidence, nor
 *   is an HTTP probe that got no answer (refused, reset, or none before the timeout): connect rejects.
 * - stdio and other byte streams: a legacy server may ignore unknown requests before `initialize`,
 *   so a `ping` (which every legacy revision answers at any time, and 2026-07-28 removed) follows
 *   the probe. A plain ping result while the probe is unanswered means the server read the probe
 *   and chose not to answer it: legacy, at once. A server that answers neither is legacy after
 *   `probeTimeoutMs`. A server that exits when probed gets a {@link ServerExitedOnProbeError}.
 * - The probe's ids are strings a later session never uses, so a late answer cannot be taken for
 *   the answer to one of its requests.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility
 */
import { createActor } from 'xstate';
import { versionNegotiationMachine } from '../../machines/version-negotiation.machine.js';
import type { Clock } from '../clock.js';
import { RequestTimeoutError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import type { Transport } from '../../streams/transport.js';
import type { InvalidInbound } from '../../streams/inbound.js';
import { NoCommonVersionError, ServerExitedOnProbeError } from './modern-client-errors.js';
import { ModernLink } from './modern-link.js';
import type { JournalEntryInput } from '../journal/entry.js';

export interface NegotiationOptions {
  /** 'auto' falls back to `initialize` for a legacy server; 'modern' fails instead. */
  era: 'auto' | 'modern';
  clock: Clock;
  /** The client's default request timeout (the link's, and the HTTP probe's). */
  timeoutMs: number;
  /** stdio: how long a probe that gets no answer at all (not even to the ping) waits. */
  probeTimeoutMs: number;
  /** The `_meta` envelope of a request naming `version`. */
  meta(version: string): JsonObject;
  /** Notifications the server sends in the modern era (the link's). */
  onNotification(method: string, params: JsonObject | undefined): void;
  /** The link the probe runs on, as soon as it exists (so its frames can be watched from the probe on). */
  onLink?(link: ModernLink): void;
  /** Journal the link's frames and timers (see `ModernLinkOptions.record`). */
  record?(entry: JournalEntryInput): void;
  /** A frame that is not a JSON-RPC message (see `ModernLinkOptions.invalid`). */
  invalid?(inbound: InvalidInbound): void;
  /** The probe's id (default: a new `mcp-actors-probe-N`); a replay gives the recorded one. */
  probeId?: string;
}

export type NegotiationOutcome =
  | { era: 'modern'; link: ModernLink; version: string; discover: JsonObject; probe: string }
  | { era: 'legacy'; reason: string };

/** Whether the transport speaks HTTP (headers, one answer per POST) rather than a byte stream. */
export function isHttpTransport(transport: Transport): boolean {
  return 'paramHeaders' in transport;
}

let probes = 0;

/**
 * Probe a started transport. Modern: the link that now owns the transport. Legacy: the transport
 * is free for `initialize` (late probe answers reach the session as unknown ids, and are ignored).
 */
export async function negotiateEra(transport: Transport, options: NegotiationOptions): Promise<NegotiationOutcome> {
  const http = isHttpTransport(transport);
  const link = new ModernLink(transport, {
    clock: options.clock,
    defaultTimeout: options.timeoutMs,
    sendsCancelled: !http,
    reissues: http,
    onNotification: options.onNotification,
    ...(options.record !== undefined && { record: options.record }),
    ...(options.invalid !== undefined && { invalid: options.invalid }),
  });
  options.onLink?.(link);
  const actor = createActor(versionNegotiationMachine, { input: { offered: [...MODERN_REVISIONS] } }).start();
  const probe = options.probeId ?? `mcp-actors-probe-${++probes}`;
  let legacyReason = '';
  try {
    for (let attempt = 1; ; attempt++) {
      const snap = actor.getSnapshot();
      if (snap.value === 'failed') {
        if (snap.context.serverSupported) throw new NoCommonVersionError(snap.context.serverSupported, snap.context.offered);
        throw new Error(snap.context.problem ?? 'Version negotiation failed');
      }
      if (typeof snap.value === 'object' && 'legacy' in snap.value) {
        actor.stop();
        link.detach(new Error('The server speaks a session revision; the probe was abandoned'));
        return { era: 'legacy', reason: legacyReason };
      }
      const version = snap.context.version!;
      const verdict = await probeOnce(link, version, `${probe}-${attempt}`, http, attempt === 1, options);
      switch (verdict.kind) {
        case 'modern':
          actor.send({ type: 'MODERN_ANSWER' });
          actor.stop();
          return { era: 'modern', link, version, discover: verdict.result, probe };
        case 'unsupported':
          actor.send({ type: 'VERSION_UNSUPPORTED', supported: verdict.supported });
          break;
        case 'legacy':
          legacyReason = verdict.reason;
          actor.send({ type: 'LEGACY_EVIDENCE', reason: verdict.reason });
          break;
        case 'exited':
          throw new ServerExitedOnProbeError(transportFailure(transport) ?? verdict.reason);
        case 'error':
          throw verdict.error;
      }
    }
  } catch (e) {
    actor.stop();
    link.close(e as Error);
    throw e;
  }
}

type Verdict =
  | { kind: 'modern'; result: JsonObject }
  | { kind: 'unsupported'; supported: string[] }
  | { kind: 'legacy'; reason: string }
  | { kind: 'exited'; reason: Error }
  | { kind: 'error'; error: Error };

/** One `server/discover` (and, on a byte stream's first attempt, the ping that follows it). */
function probeOnce(link: ModernLink, version: string, id: string, http: boolean, withPing: boolean, options: NegotiationOptions): Promise<Verdict> {
  const meta = options.meta(version);
  // HTTP always answers (an authorization flow may run first): the ordinary timeout applies.
  const timeout = http ? options.timeoutMs : options.probeTimeoutMs;
  // Over HTTP a probe lost with its connection is sent again (new id), like any modern request.
  const discover = link.request('server/discover', { _meta: meta }, { timeout, reissue: http }, id).then(
    (result): Verdict => ({ kind: 'modern', result }),
    (e: unknown): Verdict => classifyError(e, link, http),
  );
  if (http || !withPing) return discover;
  // The ping carries the modern claim, so a dual-era server does not take it for a legacy opening.
  const ping = link.request('ping', { _meta: meta }, { timeout, reissue: false }, `${id}-ping`).then(
    (result): Verdict | undefined =>
      // A legacy ping result is `{}`; a modern server would mark any result with resultType.
      result.resultType === undefined ? { kind: 'legacy', reason: 'the server answered ping but not server/discover' } : undefined,
    () => undefined,
  );
  return new Promise<Verdict>((resolve) => {
    let settled = false;
    const settle = (v: Verdict | undefined) => {
      if (settled || v === undefined) return;
      settled = true;
      resolve(v);
    };
    // A legacy answer to the probe waits for the ping's answer, which follows at once (a server
    // answers in order): the session taking over must not find it as a stray response.
    void discover.then((v) => (v.kind === 'legacy' ? ping.then(() => settle(v)) : settle(v)));
    void ping.then(settle);
  });
}

/** The transport's own account of its end (a stdio server's exit code and stderr), if it failed. */
function transportFailure(transport: Transport): Error | undefined {
  let failure: Error | undefined;
  transport.state$.subscribe((s) => {
    if (s.phase === 'failed' && s.error) failure = s.error;
  }).unsubscribe();
  return failure;
}

function classifyError(e: unknown, link: ModernLink, http: boolean): Verdict {
  const err = e as { code?: unknown; message?: unknown; data?: { supported?: unknown; authorization?: unknown; transport?: unknown; status?: unknown } };
  if (err.code === ErrorCode.UnsupportedProtocolVersion && Array.isArray(err.data?.supported)) {
    return { kind: 'unsupported', supported: (err.data.supported as unknown[]).filter((v): v is string => typeof v === 'string') };
  }
  // A failed authorization says nothing about the era: it is the answer.
  if (err.data?.authorization !== undefined) return { kind: 'error', error: e as Error };
  if (link.endedWith) return { kind: 'exited', reason: link.endedWith };
  // HTTP with no answer at all (refused, reset, unreachable) says nothing about the era.
  if (http && err.data?.transport === 'streamable-http' && err.data.status === undefined) return { kind: 'error', error: e as Error };
  // Nor does an HTTP probe still unanswered at the timeout: a legacy server refuses it at once
  // (a POST without a session), so this is a slow or stuck server, and initialize would wait as long.
  if (http && e instanceof RequestTimeoutError) return { kind: 'error', error: e };
  const message = typeof err.message === 'string' ? err.message : String(e);
  return { kind: 'legacy', reason: typeof err.code === 'number' ? `server/discover was answered ${err.code}: ${message}` : message };
}

