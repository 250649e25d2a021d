/**
 * Requests a server sends to its client, checked on both ends: `sampling/createMessage`
 * ({@link sample}), `elicitation/create` ({@link elicit}, with the server-side elicitation
 * machine), `notifications/elicitation/complete` ({@link completeElicitation}), `roots/list`
 * ({@link listRoots}) and `notifications/roots/list_changed` ({@link onRootsChanged}), plus the
 * -32042 error a handler throws when URL elicitations must happen first
 * ({@link UrlElicitationRequiredError}, {@link urlElicitationRequired}).
 *
 * Each call is made from a request handler's context (so it travels related to the request
 * being served and is aborted with it) or from a session directly. What the client did not
 * declare, or the negotiated revision does not have, fails with a clear McpError before
 * anything is sent; what the client answers is checked before it is returned.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots
 */
import { randomUUID } from '../crypto/random.js';
import { BehaviorSubject, EMPTY, type Observable } from 'rxjs';
import { createActor, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { serverElicitationMachine, type ServerElicitationError } from '../../machines/server-elicitation.machine.js';
import type { Clock } from '../clock.js';
import { CapabilityError, ConnectionClosedError, McpError, PhaseError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { hasCapability, supportsElicitationMode } from '../protocol/methods.js';
import { allows, isModernRevision, isSupportedRevision, type Feature, type Revision } from '../protocol/revisions.js';
import type { ElicitRequestedSchema, ElicitRequestURLParams, ElicitResult } from '../protocol/schema/elicitation.js';
import type { ListRootsResult, Root } from '../protocol/schema/roots.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/schema/sampling.js';
import type { Server } from '../server.js';
import { Session, type RequestHandlerContext, type RequestOptions, type ServerCaller } from '../session/session.js';
import { contentProblems, prepareRequestedSchema, urlProblem, warnClickableUrlsInForm } from './elicitation-schema.js';
import {
  ElicitationIdentityError,
  bindElicitation,
  completerIdentity,
  elicitationIdentity,
  sessionOfElicitation,
  unbindElicitation,
  type ElicitationCompleter,
} from './elicitation-identity.js';
import { callerOf } from './interceptors/dispatch.js';
import { sendThroughOutgoing } from './interceptors/outgoing.js';
import { samplingParamsProblem, samplingResultProblem } from './sampling-checks.js';

export { toolBalanceProblem } from './sampling-checks.js';

/** Where a client call comes from: a request handler's context (preferred) or a session. */
export type ClientCallTarget = RequestHandlerContext | Session;

export { ElicitationIdentityError, type ElicitationCompleter } from './elicitation-identity.js';

/** The client answered, but not with what the request asked for. */
export class InvalidClientResultError extends McpError {
  override readonly name = 'InvalidClientResultError';
  constructor(
    readonly method: string,
    readonly problem: string,
  ) {
    super(ErrorCode.InternalError, `The client's answer to "${method}" is invalid: ${problem}`, { method, problem });
  }
}

/**
 * A request cannot proceed until the user completes URL-mode elicitations (code -32042,
 * `data.elicitations`). Throw it from a handler; prefer {@link urlElicitationRequired}, which
 * also checks the client can take URL elicitations and lets {@link completeElicitation} tell
 * that client when each one is done.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
 */
export class UrlElicitationRequiredError extends McpError {
  override readonly name = 'UrlElicitationRequiredError';
  readonly elicitations: ElicitRequestURLParams[];
  constructor(elicitations: UrlElicitationSpec[], message = 'This request requires more information.') {
    if (!Array.isArray(elicitations) || elicitations.length === 0) {
      throw new TypeError('UrlElicitationRequiredError needs at least one URL elicitation');
    }
    const list = elicitations.map((e, i) => urlElicitation(e, `elicitations[${i}]`));
    super(ErrorCode.UrlElicitationRequired, message, { elicitations: list });
    this.elicitations = list;
  }
}

/** A URL elicitation to require: `mode` may be left out, `elicitationId` is generated if absent. */
export type UrlElicitationSpec = Omit<ElicitRequestURLParams, 'mode' | 'elicitationId'> & { mode?: 'url'; elicitationId?: string };

function urlElicitation(e: UrlElicitationSpec, where: string, allowSensitiveFields = false): ElicitRequestURLParams {
  if (!e || typeof e !== 'object') throw new TypeError(`${where} must be an object`);
  if (e.mode !== undefined && e.mode !== 'url') throw new TypeError(`${where}: only URL-mode elicitations may be required by -32042`);
  if (typeof e.message !== 'string' || e.message === '') throw new TypeError(`${where}.message must be a non-empty string`);
  const id = e.elicitationId ?? randomUUID();
  if (typeof id !== 'string' || id === '' || id.length > 256) throw new TypeError(`${where}.elicitationId must be a non-empty string (at most 256 characters)`);
  const problem = urlProblem(e.url, { allowSensitiveFields });
  if (problem) throw new TypeError(`${where}: ${problem}`);
  const { mode: _m, elicitationId: _i, ...rest } = e;
  return { ...rest, mode: 'url', elicitationId: id };
}

// ---------------------------------------------------------------- common

interface Target {
  session: ServerCaller;
  send(method: string, params: JsonObject | undefined, options: RequestOptions | undefined): Promise<JsonObject>;
}

/**
 * With an inspector, the actor a server-side ask is parented to: the request being served when
 * it runs as an actor, else the session's actor; none without an inspector.
 */
function inspectParentOf(t: ClientCallTarget): AnyActorRef | undefined {
  if (t instanceof Session) return t.inspectActor;
  return t.request?.inspectActor ?? t.session.inspectActor;
}

function targetOf(t: ClientCallTarget): Target {
  // Legacy asks pass the outgoing stages of the server's interceptors (OpenTelemetry's CLIENT span).
  if (t instanceof Session) return { session: t, send: (m, p, o) => sendThroughOutgoing(t, () => callerOf(t), m, p, (q) => t.request(m, q, o)) };
  return { session: t.session, send: (m, p, o) => sendThroughOutgoing(t.session, () => callerOf(t.session), m, p, (q) => t.sendRequest(m, q, o)) };
}

/**
 * Callers of 2026-07-28 requests whose handler carries on as a task after the request was
 * answered: its asks go through the task (`tasks/update`), so the request's end does not refuse them.
 */
const carriedOn = new WeakSet<ServerCaller>();

/** @internal A task carries on the handler of this 2026-07-28 request (see `lib/tasks/modern-tasks.ts`). */
export function carryOnAsTask(session: ServerCaller): void {
  carriedOn.add(session);
}

/** The session must be operating (or carried on by a task); its negotiated revision. */
function operatingRevision(session: ServerCaller, method: string): Revision {
  const phase = carriedOn.has(session) ? 'operating' : session.currentPhase;
  if (phase === 'closing' || phase === 'closed' || phase === 'failed') throw new ConnectionClosedError(`Cannot send "${method}": the session is ${phase}`);
  if (phase !== 'operating') throw new PhaseError(method, phase);
  const rev = session.protocolVersion;
  if (!isSupportedRevision(rev)) throw new McpError(ErrorCode.InvalidRequest, `Cannot send "${method}": no supported protocol revision was negotiated`);
  return rev;
}

/**
 * The client did not declare what a call needs: on a session, a {@link CapabilityError}; on a
 * 2026-07-28 request, -32021 naming the capability as a `ClientCapabilities` object (the request
 * fails; the client can retry declaring it).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#capabilities
 */
function missingCapability(session: ServerCaller, method: string, capability: string): McpError {
  if (!isModernRevision(session.protocolVersion)) return new CapabilityError(method, capability, 'client');
  return new MissingClientCapabilityError(method, capability);
}

/** A 2026-07-28 request needs a client capability its `_meta` did not declare (-32021, HTTP 400). */
export class MissingClientCapabilityError extends McpError {
  override readonly name = 'MissingClientCapabilityError';
  constructor(
    readonly method: string,
    readonly capability: string,
  ) {
    // `sampling.tools` → { sampling: { tools: {} } }
    const required: JsonObject = {};
    let node = required;
    for (const part of capability.split('.')) node = node[part] = {} as JsonObject;
    super(
      ErrorCode.MissingRequiredClientCapability,
      `Missing required client capability: "${method}" needs "${capability}", which this request's _meta did not declare`,
      { requiredCapabilities: required },
    );
  }
}

function notInRevision(method: string, what: string, rev: Revision, feature: Feature): McpError {
  return new McpError(ErrorCode.InvalidRequest, `Cannot send "${method}" ${what}: protocol revision ${rev} does not have it`, {
    method,
    revision: rev,
    feature,
  });
}

function invalidParams(method: string, problem: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid "${method}" params: ${problem}`, { method, problem });
}

// ---------------------------------------------------------------- sampling

/** Options of {@link sample}. */
export interface SampleOptions extends RequestOptions {
  /**
   * Refuse (before sending) to sample again once the conversation holds this many tool rounds
   * (assistant `tool_use` messages): the server's own tool loop stops there.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#security-considerations
   */
  maxToolRounds?: number;
}

/**
 * Ask the client's model for a message (`sampling/createMessage`). Before sending: the client
 * declared `sampling`; `tools` / `toolChoice` (and tool blocks) only with `sampling.tools` and
 * a revision that has them; `includeContext` other than `none` only with `sampling.context`
 * (from 2025-11-25); content the revision has; tool uses and results balanced. The result is
 * checked too (shape, offered tools only, `toolChoice`, balance with the result appended).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 */
export async function sample(target: ClientCallTarget, params: CreateMessageRequestParams, sampleOptions?: SampleOptions): Promise<CreateMessageResult> {
  const method = 'sampling/createMessage';
  const { maxToolRounds, ...options } = sampleOptions ?? {};
  const { session, send } = targetOf(target);
  if (maxToolRounds !== undefined && Array.isArray(params?.messages)) {
    const rounds = params.messages.filter((m) => (Array.isArray(m?.content) ? m.content : [m?.content]).some((b) => b?.type === 'tool_use')).length;
    if (rounds >= maxToolRounds) {
      throw invalidParams(method, `the tool loop has run ${rounds} rounds, the limit set by maxToolRounds (${maxToolRounds}); answer without sampling again`);
    }
  }
  const rev = operatingRevision(session, method);
  const caps = session.peerCapabilities;
  if (!hasCapability(caps, ['sampling'])) throw missingCapability(session, method, 'sampling');
  const usesTools =
    params?.tools !== undefined ||
    params?.toolChoice !== undefined ||
    (Array.isArray(params?.messages) &&
      params.messages.some((m) => (Array.isArray(m?.content) ? m.content : [m?.content]).some((b) => b?.type === 'tool_use' || b?.type === 'tool_result')));
  if (usesTools) {
    if (!allows(rev, 'samplingTools')) throw notInRevision(method, 'with tools', rev, 'samplingTools');
    if (!hasCapability(caps, ['sampling', 'tools'])) throw missingCapability(session, method, 'sampling.tools');
  }
  if (params?.includeContext !== undefined && params.includeContext !== 'none' && allows(rev, 'samplingContextCapability') && !hasCapability(caps, ['sampling', 'context'])) {
    throw missingCapability(session, method, 'sampling.context');
  }
  const problem = samplingParamsProblem(params, rev, usesTools);
  if (problem) throw invalidParams(method, problem);
  const result = await send(method, params as unknown as JsonObject, options as RequestOptions);
  const bad = samplingResultProblem(result, params, rev, usesTools);
  if (bad) throw new InvalidClientResultError(method, bad);
  return result as unknown as CreateMessageResult;
}

// ---------------------------------------------------------------- elicitation

export type ServerElicitationSnapshot = SnapshotFrom<typeof serverElicitationMachine>;

/** Params of {@link elicit}: form (mode absent or `form`) or URL (`elicitationId` generated when absent). */
export type ElicitParams =
  | { mode?: 'form'; message: string; requestedSchema: ElicitRequestedSchema; _meta?: JsonObject }
  | { mode: 'url'; message: string; url: string; elicitationId?: string; _meta?: JsonObject };

export interface ElicitOptions extends RequestOptions {
  /** The clock the elicitation machine runs on. Default: the system clock. */
  clock?: Clock;
  /** URL mode: how long to wait for the out-of-band completion. Default 30 minutes. */
  completionTimeout?: number;
  /** Skip the guard against sensitive-looking form fields and URL query parameters. */
  allowSensitiveFields?: boolean;
  /**
   * URL mode: the identity key of the user this elicitation is for, when the server identifies
   * users its own way. Default: derived from the verified `authInfo` of the request (its `sub`).
   */
  identity?: string;
}

/** The client's answer, with the machine's snapshots alongside. */
export type ElicitationCall = Promise<ElicitResult> & {
  /** The elicitation machine's snapshots: the current one first, then every change; completes when it settles. */
  readonly elicitation$: Observable<ServerElicitationSnapshot>;
  /** URL mode: the id (given or generated); form mode: undefined. */
  readonly elicitationId: string | undefined;
};

interface TrackedElicitation {
  /** Present for elicitations started with {@link elicit}. */
  actor?: ReturnType<typeof createActor<typeof serverElicitationMachine>>;
  /** For -32042 elicitations: the notification went out. */
  completed: boolean;
  /** The verified user it was issued to (undefined when the transport authenticated nobody). */
  identity: string | undefined;
}

/** Numbers the inspected elicitation actors (their ids must be unique in the parent's system). */
let elicitations = 0;

/** URL elicitations per session: the only client a completion may be sent to. */
const urlElicitations = new WeakMap<ServerCaller, Map<string, TrackedElicitation>>();

function trackerOf(session: ServerCaller): Map<string, TrackedElicitation> {
  let map = urlElicitations.get(session);
  if (!map) {
    const created = new Map<string, TrackedElicitation>();
    map = created;
    urlElicitations.set(session, created);
    // Both eras: a session's end, or a 2026-07-28 request's (its caller ends with it).
    session.onEnd(() => {
      for (const [id, t] of created) {
        if (t.actor?.getSnapshot().status === 'active') t.actor.send({ type: 'SESSION_CLOSED' });
        if (t.identity !== undefined) unbindElicitation(t.identity, id);
      }
      created.clear();
    });
  }
  return map;
}

/** Check the mode against capabilities and revision; the params to send, shaped for the revision. */
function prepareElicitation(
  session: ServerCaller,
  params: ElicitParams,
  options: ElicitOptions | undefined,
): { rev: Revision; mode: 'form' | 'url'; wire: JsonObject; schema?: ElicitRequestedSchema; handlerId?: string } {
  const method = 'elicitation/create';
  const rev = operatingRevision(session, method);
  if (!allows(rev, 'elicitationForm')) throw notInRevision(method, '(elicitation)', rev, 'elicitationForm');
  const caps = session.peerCapabilities;
  if (!hasCapability(caps, ['elicitation'])) throw missingCapability(session, method, 'elicitation');
  if (!params || typeof params !== 'object') throw invalidParams(method, 'params must be an object');
  const mode = params.mode ?? 'form';
  if (mode !== 'form' && mode !== 'url') throw invalidParams(method, `"mode" must be "form" or "url", not ${JSON.stringify(mode)}`);
  if (mode === 'url' && !allows(rev, 'elicitationUrl')) throw notInRevision(method, 'in URL mode', rev, 'elicitationUrl');
  if (!supportsElicitationMode(caps, mode, rev)) throw missingCapability(session, method, `elicitation.${mode}`);
  if (typeof params.message !== 'string' || params.message === '') throw invalidParams(method, '"message" must be a non-empty string');
  const wire: JsonObject = {};
  if (params._meta !== undefined) wire._meta = params._meta;
  if (mode === 'form') {
    let schema: ElicitRequestedSchema;
    try {
      schema = prepareRequestedSchema((params as { requestedSchema: unknown }).requestedSchema, rev, options);
    } catch (e) {
      throw invalidParams(method, (e as Error).message);
    }
    // `mode` exists from 2025-11-25; older clients know only form mode, without the field.
    if (params.mode === 'form' && allows(rev, 'elicitationModeCapabilities')) wire.mode = 'form';
    wire.message = params.message;
    wire.requestedSchema = schema as unknown as JsonObject;
    warnClickableUrlsInForm(params.message, schema);
    return { rev, mode, wire, schema };
  }
  let url: ElicitRequestURLParams;
  // 2026-07-28: the round gives the id (the same on every retry); it stays on the server.
  const stable = (params as UrlElicitationSpec).elicitationId === undefined ? session.requestScope?.inputs.urlElicitationId?.(options) : undefined;
  try {
    url = urlElicitation({ ...(params as UrlElicitationSpec), ...(stable !== undefined && { elicitationId: stable }) }, 'params', options?.allowSensitiveFields);
  } catch (e) {
    throw invalidParams(method, (e as Error).message);
  }
  if (trackerOf(session).has(url.elicitationId)) throw invalidParams(method, `elicitationId ${JSON.stringify(url.elicitationId)} is already in use in this session`);
  Object.assign(wire, { mode: 'url', message: url.message, url: url.url, elicitationId: url.elicitationId });
  // 2026-07-28 removed elicitationId (and the completion notification): the retry tells the server.
  if (!allows(rev, 'elicitationComplete')) {
    delete wire.elicitationId;
    return { rev, mode, wire, handlerId: url.elicitationId };
  }
  return { rev, mode, wire };
}

/** The client's answer, checked: an action; for an accepted form, content matching the schema. */
function checkElicitResult(result: JsonObject, mode: 'form' | 'url', schema: ElicitRequestedSchema | undefined): ElicitResult {
  const method = 'elicitation/create';
  const action = result.action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    throw new InvalidClientResultError(method, `"action" must be "accept", "decline" or "cancel", not ${JSON.stringify(action)?.slice(0, 60)}`);
  }
  const out: ElicitResult = { action };
  if (result._meta !== undefined) out._meta = result._meta as JsonObject;
  // Content is kept only for an accepted form: URL mode data never passes through the client.
  if (action === 'accept' && mode === 'form') {
    const problems = contentProblems(schema!, result.content ?? {});
    if (problems.length) throw new InvalidClientResultError(method, `the content does not match the requested schema: ${problems.join('; ')}`);
    out.content = { ...(result.content as ElicitResult['content']) };
  }
  return out;
}

function errorData(e: unknown): ServerElicitationError {
  if (e instanceof McpError) return e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data };
  return { code: ErrorCode.InternalError, message: (e as Error)?.message ?? String(e) };
}

/**
 * Ask the user for input through the client (`elicitation/create`), run as a server-side
 * elicitation machine (`elicitation$`). Form mode: the schema must be the restricted, flat one
 * (checked, and shaped for the negotiated revision); the answer is checked against it. URL mode
 * (2025-11-25, client declared `elicitation.url`): an `accept` means the user agreed to open the
 * URL; call {@link completeElicitation} when the server sees the interaction finish.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
export function elicit(target: ClientCallTarget, params: ElicitParams, options?: ElicitOptions): ElicitationCall {
  const method = 'elicitation/create';
  const { session, send } = targetOf(target);
  let prepared: ReturnType<typeof prepareElicitation>;
  try {
    prepared = prepareElicitation(session, params, options);
  } catch (e) {
    return Object.assign(Promise.reject(e as Error), { elicitation$: EMPTY as Observable<ServerElicitationSnapshot>, elicitationId: undefined });
  }
  const { mode, wire, schema, handlerId } = prepared;
  const elicitationId = mode === 'url' ? (wire.elicitationId as string | undefined) : undefined;
  const { clock: _c, completionTimeout: _t, allowSensitiveFields: _a, identity: _u, ...requestOptions } = options ?? {};
  const identity = elicitationId !== undefined ? elicitationIdentity(authInfoOf(target), options?.identity) : undefined;

  let resolve!: (r: ElicitResult) => void;
  let reject!: (e: Error) => void;
  const result = new Promise<ElicitResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  let failure: Error | undefined;

  const machine = serverElicitationMachine.provide({
    actions: {
      sendRequest: () => {
        send(method, wire, requestOptions).then(
          (answer) => {
            let checked: ElicitResult;
            try {
              checked = checkElicitResult(answer, mode, schema);
            } catch (e) {
              failure = e as Error;
              actor.send({ type: 'ANSWER_INVALID', error: errorData(e) });
              return;
            }
            actor.send({ type: 'ANSWERED', action: checked.action, ...(checked.content !== undefined && { content: checked.content }) });
            resolve(checked);
          },
          (e: unknown) => {
            failure = e as Error;
            actor.send({ type: 'REQUEST_FAILED', error: errorData(e) });
          },
        );
      },
      sendCompleteNotification: () => {
        try {
          session.notify('notifications/elicitation/complete', { elicitationId: elicitationId! });
        } catch {
          // The session is closing: the client will not hear of it.
        }
      },
    },
  });
  // With an inspector the elicitation joins its request's (or session's) system, so the inspector sees it.
  // (A child's timers run on its parent system's clock: an elicitation given another clock stays a root.)
  const parent = options?.clock === undefined || options.clock === session.sessionClock ? inspectParentOf(target) : undefined;
  const actor = createActor(machine, {
    input: { mode, ...(elicitationId !== undefined && { elicitationId }), ...(options?.completionTimeout !== undefined && { completionTimeout: options.completionTimeout }) },
    clock: options?.clock ?? session.sessionClock,
    ...(parent !== undefined && { parent, id: `elicitation:${++elicitations}` }),
  });
  const tracker = elicitationId !== undefined ? trackerOf(session) : undefined;
  // Settled URL elicitations stay known to the session, so their ids are never reused and a
  // late completeElicitation answers false.
  if (tracker) tracker.set(elicitationId!, { actor, completed: false, identity });
  if (identity !== undefined) bindElicitation(identity, elicitationId!, session);
  // The request goes out on start; its answer cannot arrive before the subscription below.
  actor.start();
  const snapshots = new BehaviorSubject<ServerElicitationSnapshot>(actor.getSnapshot());
  actor.subscribe((snapshot) => {
    snapshots.next(snapshot);
    if (snapshot.matches('failed')) reject(failure ?? new McpError(snapshot.context.error?.code ?? ErrorCode.InternalError, snapshot.context.error?.message ?? 'Elicitation failed'));
    if (snapshot.hasTag('settled')) {
      if (identity !== undefined) unbindElicitation(identity, elicitationId!);
      queueMicrotask(() => {
        // A child cannot be stopped directly (xstate throws); settled, it has nothing left to do.
        if (parent === undefined) actor.stop();
        snapshots.complete();
      });
    }
  });
  // 2026-07-28: nothing is tracked or completed by id, but the handler still learns its stable id.
  return Object.assign(result, { elicitation$: snapshots.asObservable(), elicitationId: elicitationId ?? handlerId });
}

/**
 * The server saw the out-of-band interaction of a URL elicitation finish: send
 * `notifications/elicitation/complete` to the client that was asked (only that one). Returns
 * true when the notification went out (or will, as soon as the client's `accept` arrives);
 * false when this elicitation cannot complete any more (declined, expired, done already).
 * Throws for an id this session never issued, or a client without URL mode.
 *
 * An elicitation issued on an authenticated request is bound to that user: pass `by`, the user
 * your completion route verified; another user (or none) is refused with
 * {@link ElicitationIdentityError} and the elicitation keeps waiting.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#completion-notifications-for-url-mode-elicitation
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#phishing
 */
export function completeElicitation(session: ServerCaller, elicitationId: string, by?: ElicitationCompleter): boolean {
  const method = 'notifications/elicitation/complete';
  const rev = operatingRevision(session, method);
  if (!allows(rev, 'elicitationUrl')) throw notInRevision(method, '', rev, 'elicitationUrl');
  if (!supportsElicitationMode(session.peerCapabilities, 'url', rev)) throw new CapabilityError(method, 'elicitation.url', 'client');
  const tracked = urlElicitations.get(session)?.get(elicitationId);
  if (!tracked) throw unknownElicitation(elicitationId);
  if (tracked.identity !== undefined) {
    const who = completerIdentity(by);
    if (who === undefined) throw new ElicitationIdentityError(elicitationId, 'missing');
    if (who !== tracked.identity) throw new ElicitationIdentityError(elicitationId, 'mismatch');
  }
  if (tracked.actor) {
    const before = tracked.actor.getSnapshot();
    if (before.status !== 'active' || !(before.matches('requested') || before.matches({ accepted: 'awaitingCompletion' }))) return false;
    tracked.actor.send({ type: 'COMPLETE' });
    return true;
  }
  if (tracked.completed) return false;
  tracked.completed = true;
  if (tracked.identity !== undefined) unbindElicitation(tracked.identity, elicitationId);
  session.notify(method, { elicitationId });
  return true;
}

/**
 * Complete a URL elicitation from the server's completion route knowing only the elicitation id
 * (from the URL) and the user it verified: the elicitation is looked up among that user's
 * pending ones, never by the id alone, so a changed URL or another user's id finds nothing
 * (refused like an unknown id). Then as {@link completeElicitation}.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#statefulness
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#phishing
 */
export function completeElicitationFor(by: ElicitationCompleter, elicitationId: string): boolean {
  const who = completerIdentity(by);
  if (who === undefined) throw new TypeError('completeElicitationFor needs the verified user ({ authInfo } or { identity })');
  const session = sessionOfElicitation(who, elicitationId);
  if (!session) throw unknownElicitation(elicitationId);
  return completeElicitation(session, elicitationId, by);
}

function unknownElicitation(elicitationId: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Unknown elicitation ${JSON.stringify(String(elicitationId).slice(0, 256))} for this session: a completion goes only to the client that was asked, for an elicitation still open`,
    { elicitationId },
  );
}

function authInfoOf(target: ClientCallTarget): unknown {
  return target.authInfo;
}

/**
 * Build the -32042 error for `ctx`'s request, after checking the client can take URL
 * elicitations in this revision (the error must not be used otherwise), and remember the ids
 * so {@link completeElicitation} can later tell this client. Throw what it returns.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
 */
export function urlElicitationRequired(target: ClientCallTarget, elicitations: UrlElicitationSpec[], message?: string): UrlElicitationRequiredError {
  const { session } = targetOf(target);
  const method = 'elicitation/create';
  const rev = operatingRevision(session, method);
  if (!allows(rev, 'elicitationUrl')) throw notInRevision(method, 'in URL mode (-32042)', rev, 'elicitationUrl');
  if (!supportsElicitationMode(session.peerCapabilities, 'url', rev)) throw new CapabilityError(method, 'elicitation.url', 'client');
  const error = new UrlElicitationRequiredError(elicitations, message);
  const tracker = trackerOf(session);
  const identity = elicitationIdentity(authInfoOf(target));
  for (const e of error.elicitations) {
    if (tracker.has(e.elicitationId)) continue;
    tracker.set(e.elicitationId, { completed: false, identity });
    if (identity !== undefined) bindElicitation(identity, e.elicitationId, session);
  }
  return error;
}

// ---------------------------------------------------------------- roots

/**
 * Ask the client for its roots (`roots/list`; the client must have declared `roots`). Every
 * root must be a `file://` URI.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots
 */
export async function listRoots(target: ClientCallTarget, options?: RequestOptions): Promise<ListRootsResult> {
  const method = 'roots/list';
  const { session, send } = targetOf(target);
  operatingRevision(session, method);
  if (!hasCapability(session.peerCapabilities, ['roots'])) throw missingCapability(session, method, 'roots');
  const result = await send(method, undefined, options);
  const roots = result.roots;
  if (!Array.isArray(roots)) throw new InvalidClientResultError(method, '"roots" must be an array');
  const out: Root[] = roots.map((r: unknown, i) => {
    if (!r || typeof r !== 'object') throw new InvalidClientResultError(method, `roots[${i}] must be an object`);
    const root = r as Record<string, unknown>;
    if (typeof root.uri !== 'string' || !root.uri.startsWith('file://')) {
      throw new InvalidClientResultError(method, `roots[${i}].uri must be a file:// URI (got ${JSON.stringify(root.uri)?.slice(0, 200)})`);
    }
    if (root.name !== undefined && typeof root.name !== 'string') throw new InvalidClientResultError(method, `roots[${i}].name must be a string`);
    return root as Root;
  });
  const answer: ListRootsResult = { roots: out };
  if (result._meta !== undefined) answer._meta = result._meta as JsonObject;
  return answer;
}

const rootsListeners = new WeakMap<Server, Set<(session: Session) => void | Promise<void>>>();

/**
 * Call `listener` with the session whenever its client sends
 * `notifications/roots/list_changed` (clients that did not declare `roots.listChanged` are
 * ignored). Returns a function that removes the listener.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#root-list-changes
 */
export function onRootsChanged(server: Server, listener: (session: Session) => void | Promise<void>): () => void {
  let listeners = rootsListeners.get(server);
  if (!listeners) {
    const created = new Set<(session: Session) => void | Promise<void>>();
    listeners = created;
    rootsListeners.set(server, created);
    server.onNotification('notifications/roots/list_changed', async (_params, session) => {
      if (!hasCapability(session.peerCapabilities, ['roots', 'listChanged'])) return;
      const failures: unknown[] = [];
      for (const l of [...created]) {
        try {
          await l(session);
        } catch (e) {
          failures.push(e);
        }
      }
      if (failures.length) throw failures[0];
    });
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
