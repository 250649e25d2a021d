/**
 * One inbound request a server is serving, in either era: its life is
 * `machines/server-request.machine.ts`, stepped through a transition table computed once from the
 * machine (no actor on the hot path: `createActor` costs tens of µs). With an inspector the
 * request is also a real actor of that machine, parented to its session (legacy) or its server
 * (2026-07-28), fed the same events. When it ends, its owner may publish a {@link RequestRecord}.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { createActor, type AnyActorRef } from 'xstate';
import { serverRequestMachine, type ServerRequestEvent } from '../../machines/server-request.machine.js';
import type { Clock } from '../clock.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import type { Diagnostic } from './session-options.js';

/** The machine's state names. */
export type ServerRequestState = 'received' | 'running' | 'asking' | 'answered' | 'inputRequired' | 'failed' | 'cancelled';
/** How a request ended: the machine's final states. */
export type RequestOutcome = 'answered' | 'inputRequired' | 'failed' | 'cancelled';
/** Which era carried the request: a legacy session, or 2026-07-28 (request by request). */
export type RequestEra = 'legacy' | 'modern';

/** What a server tells of a request that ended (`Server.requests$`). */
export interface RequestRecord {
  id: RequestId;
  method: string;
  /** The tool or prompt name (`tools/call`, `prompts/get`). */
  name?: string;
  /** The resource (`resources/read`, `resources/subscribe`...). */
  uri?: string;
  era: RequestEra;
  /** Legacy: the session's label (`session-<n>`, or its HTTP session id); 2026-07-28: the authenticated principal, or `anonymous`. */
  caller: string;
  /** 2026-07-28: which round of input this attempt is (0: the first; a retry with `requestState` counts on). Legacy: 0. */
  round: number;
  /** How many things the client was asked while serving it: legacy, requests sent to the client; 2026-07-28, the input requests of its `input_required` result. */
  inputRequests: number;
  outcome: RequestOutcome;
  /** The error answered, when the outcome is `failed`. */
  error?: { code: number; message: string };
  /** The interceptors (`Server.use`) that ran for it, in order; absent when none did. */
  interceptors?: string[];
  /** The interceptor that answered it without calling `next` (a short-circuit), if one did. */
  shortCircuitBy?: string;
  /**
   * 2026-07-28: what a legacy session would have noted on its `diagnostics$` while serving it (a
   * 2026-07-28 request has no session): above all `handler-error`, a handler's throw other than an
   * `McpError`, with the thrown error as `detail` (its stack; the client gets only its message).
   * Absent when there was none, and always for a legacy request (see `ServerSession.diagnostics$`).
   */
  diagnostics?: Diagnostic[];
  /** When it was received, and how long it took, in ms on the server's clock. */
  startedAt: number;
  durationMs: number;
}

/** Where a request's life is reported. */
export interface RequestOwner {
  readonly clock: Clock;
  readonly era: RequestEra;
  /** The caller when the request names no principal, computed only when a record is built. */
  caller(): string;
  /** Called once, when the request reaches a final state. */
  ended?(request: ServerRequest): void;
  /** The actor to parent the request's actor to, when an inspector is attached. */
  inspectParent?(): AnyActorRef | undefined;
}

type Table = Readonly<Record<string, Readonly<Record<string, ServerRequestState>>>>;

/**
 * The machine's transitions as `state → event type → target`, read from its definition once.
 * The machine has no guards, actions or nested states, so this is all it decides.
 */
export function transitionTable(machine: typeof serverRequestMachine = serverRequestMachine): Table {
  const table: Record<string, Record<string, ServerRequestState>> = {};
  for (const [name, node] of Object.entries(machine.root.states)) {
    const row: Record<string, ServerRequestState> = {};
    for (const [event, transitions] of node.transitions) {
      const target = transitions[0]?.target?.[0];
      if (target !== undefined) row[event] = target.key as ServerRequestState;
    }
    table[name] = row;
  }
  return table;
}

const TABLE = transitionTable();
// The events without data, made once: most requests step START then RESULT, and an object per step adds up.
const START: ServerRequestEvent = { type: 'START' };
const ASKED: ServerRequestEvent = { type: 'ASKED' };
const RESULT: ServerRequestEvent = { type: 'RESULT' };
const CANCEL: ServerRequestEvent = { type: 'CANCEL' };
const FINAL: ReadonlySet<string> = new Set(Object.entries(serverRequestMachine.root.states).filter(([, n]) => n.type === 'final').map(([k]) => k));

export class ServerRequest {
  state: ServerRequestState = 'received';
  readonly startedAt: number;
  /** Requests to the client in flight (legacy). */
  private open = 0;
  inputRequests = 0;
  round = 0;
  error: { code: number; message: string } | undefined;
  // (Declared, not defined: a request that meets no interceptor carries no slot for them.)
  /** The interceptors that ran for it, in order (undefined: none). */
  declare interceptors: string[] | undefined;
  /** The interceptor that answered without calling `next`, if one did. */
  declare shortCircuitBy: string | undefined;
  /** What was noted while serving it (2026-07-28; see {@link RequestRecord.diagnostics}). */
  declare diagnostics: Diagnostic[] | undefined;
  private readonly actor: ReturnType<typeof createActor<typeof serverRequestMachine>> | undefined;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly params: JsonObject | undefined,
    private readonly owner: RequestOwner,
    /** Who the transport says the caller is (2026-07-28: the authenticated subject), when it knows. */
    readonly principal?: string,
  ) {
    this.startedAt = owner.clock.now();
    const parent = owner.inspectParent?.();
    if (parent !== undefined) {
      // Only with an inspector: the actor joins the parent's system, whose inspector sees it.
      this.actor = createActor(serverRequestMachine, { parent, id: `request:${String(id)}` });
      this.actor.start();
    }
  }

  /** @internal The request's actor (only with an inspector): the parent of what the request asks the client. */
  get inspectActor(): AnyActorRef | undefined {
    return this.actor;
  }

  get era(): RequestEra {
    return this.owner.era;
  }

  /** Whether the request reached a final state. */
  get done(): boolean {
    return FINAL.has(this.state);
  }

  /** Step the machine; an event the current state does not take is ignored, as an actor would. */
  private step(event: ServerRequestEvent): void {
    const next = TABLE[this.state]![event.type];
    if (next === undefined) return;
    this.state = next;
    this.actor?.send(event);
    if (FINAL.has(next)) {
      // (An actor in a final state is done; it tells its parent so itself.) No end time is taken
      // here: only a record needs one, and its owner makes it now, while told (see `record`).
      this.owner.ended?.(this);
    }
  }

  /** An interceptor stage was entered (`Server.use`). */
  intercepted(stage: string): void {
    (this.interceptors ??= []).push(stage);
  }

  /** An interceptor answered without calling `next`. */
  shortCircuited(stage: string): void {
    this.shortCircuitBy = stage;
  }

  /** Something was noted while serving it (2026-07-28: its carrier has no `diagnostics$`). */
  diagnosed(diagnostic: Diagnostic): void {
    (this.diagnostics ??= []).push(diagnostic);
  }

  /** The handler starts. */
  start(): void {
    this.step(START);
  }

  /** The handler sent the client a request (legacy era). */
  askStarted(method: string): void {
    this.inputRequests++;
    if (this.open++ === 0) this.step({ type: 'ASK', method });
  }

  /** A request to the client was answered, failed or given up. */
  askEnded(): void {
    if (this.open > 0 && --this.open === 0) this.step(ASKED);
  }

  /** 2026-07-28: the round ends with these input requests; the client retries with their answers. */
  inputRequired(keys: string[]): void {
    this.inputRequests += keys.length;
    this.step({ type: 'INPUT_REQUIRED', keys });
  }

  answered(): void {
    this.step(RESULT);
  }

  failed(error: { code: number; message: string }): void {
    this.error = { code: error.code, message: error.message };
    this.step({ type: 'ERROR', code: error.code });
  }

  cancelled(reason?: string): void {
    this.step(reason === undefined ? CANCEL : { type: 'CANCEL', reason });
  }

  /** The record of a request that ends now: its owner makes it while told of the end (see {@link RequestRecord}). */
  record(): RequestRecord {
    const r: RequestRecord = {
      id: this.id,
      method: this.method,
      era: this.owner.era,
      caller: this.principal ?? this.owner.caller(),
      round: this.round,
      inputRequests: this.inputRequests,
      outcome: this.state as RequestOutcome,
      startedAt: this.startedAt,
      durationMs: this.owner.clock.now() - this.startedAt,
    };
    const p = this.params;
    if (p !== undefined) {
      if (typeof p.name === 'string' && (this.method === 'tools/call' || this.method === 'prompts/get')) r.name = p.name;
      if (typeof p.uri === 'string') r.uri = p.uri;
    }
    if (this.error !== undefined) r.error = this.error;
    if (this.interceptors !== undefined) r.interceptors = [...this.interceptors];
    if (this.shortCircuitBy !== undefined) r.shortCircuitBy = this.shortCircuitBy;
    if (this.diagnostics !== undefined) r.diagnostics = [...this.diagnostics];
    return r;
  }
}
