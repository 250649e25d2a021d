/**
 * The server side of one round of a multi round-trip request: executes
 * `machines/input-round.machine.ts` for a handler that asks for client input on a modern
 * request. Asks answered by the retry (or by an earlier round, through the signed state) resolve
 * at once; the unanswered asks of one turn end the round with an `InputRequiredResult`.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { randomUUID } from '../crypto/random.js';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { inputRoundMachine, type InputRoundEvent } from '../../machines/input-round.machine.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { spreadMerge } from '../jsonrpc/spread-copy.js';
import { INPUT_REQUIRED_METHODS, type InputRequiredResult, type InputRequests } from '../protocol/schema/modern.js';

const INPUT_REQUIRED = new Set<string>(INPUT_REQUIRED_METHODS);
import type { RequestOptions } from '../session/request-registry.js';
import { nextTurn } from '../next-turn.js';

/** Key prefixes of asks without an explicit `inputKey`. */
const KIND: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/** What the round needs from the request it serves. */
export interface InputRoundHost {
  /** The request's method: only tools/call, prompts/get and resources/read may end input-required. */
  readonly method: string;
  /** Answers of earlier rounds and of this retry, by key. */
  readonly answers: JsonObject;
  /** The URL elicitation ids of earlier rounds, by input key. */
  readonly ids?: Readonly<Record<string, string>>;
  /** The state for the next round, signed, carrying `answers` and the URL elicitation `ids`. */
  sealState(answers: JsonObject, ids: Record<string, string>): string;
  /** The round ended with input required: answer it (and abandon the handler). */
  endRound(result: InputRequiredResult): void;
}

/** Whether `answer` has the shape of a result of `method` (a wrong one is asked again). */
export function answers(method: string, answer: unknown): answer is JsonObject {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return false;
  const a = answer as JsonObject;
  switch (method) {
    case 'elicitation/create':
      return a.action === 'accept' || a.action === 'decline' || a.action === 'cancel';
    case 'sampling/createMessage':
      return (a.role === 'assistant' || a.role === 'user') && a.content !== undefined && a.content !== null;
    case 'roots/list':
      return Array.isArray(a.roots);
    default:
      return false;
  }
}

export class InputRound {
  private snapshot: SnapshotFrom<typeof inputRoundMachine> | undefined;
  private readonly asked = new Map<string, number>();
  private readonly requests: InputRequests = {};
  /** URL elicitation ids given out in this run, by input key (carried to the next round). */
  private readonly ids: Record<string, string> = {};

  constructor(private readonly host: InputRoundHost) {}

  /**
   * The `elicitationId` of the URL elicitation the handler is about to ask (its next
   * `elicitation/create`, or the one with `inputKey`): the id an earlier round gave it, or a new
   * one. The client never sees it (2026-07-28 removed it from the wire); the handler gets the same
   * id on every retry, to correlate its out-of-band flow.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation
   */
  urlElicitationId(options?: RequestOptions): string {
    const key = options?.inputKey ?? `elicitation-${(this.asked.get('elicitation') ?? 0) + 1}`;
    return (this.ids[key] ??= this.host.ids?.[key] ?? randomUUID());
  }

  /** A handler's ask (through `ctx.sendRequest`): its answer, or a promise that never settles. */
  ask(method: string, params: JsonObject | undefined, options?: RequestOptions): Promise<JsonObject> {
    const kind = KIND[method];
    if (!INPUT_REQUIRED.has(this.host.method)) {
      return Promise.reject(
        new McpError(ErrorCode.InternalError, `Cannot ask the client for input ("${method}") while serving "${this.host.method}": only tools/call, prompts/get and resources/read may answer input_required`),
      );
    }
    if (kind === undefined) {
      return Promise.reject(new McpError(ErrorCode.InvalidRequest, `Cannot send "${method}" on a 2026-07-28 request: servers send no requests to the client (only elicitation, sampling and roots, as input requests)`));
    }
    const n = (this.asked.get(kind) ?? 0) + 1;
    this.asked.set(kind, n);
    const key = options?.inputKey ?? `${kind}-${n}`;
    const given = this.host.answers[key];
    if (answers(method, given)) return Promise.resolve(given);
    if (this.requests[key] !== undefined) {
      return Promise.reject(new McpError(ErrorCode.InternalError, `Input key ${JSON.stringify(key)} was asked twice in one round; give each ask its own inputKey`));
    }
    this.requests[key] = (params === undefined ? { method } : { method, params }) as InputRequests[string];
    this.send({ type: 'ASKED', key });
    // Abandoned when the round ends: the retry runs the handler again from the start.
    return new Promise<JsonObject>(() => {});
  }

  /** The handler settled: whether its outcome stands (false once the round ended input-required). */
  settled(ok: boolean): boolean {
    if (this.snapshot === undefined) return true;
    if (this.snapshot.status === 'done') return this.snapshot.value !== 'inputRequired';
    this.send({ type: ok ? 'RETURNED' : 'FAILED' });
    return true;
  }

  /** Pure transitions on one snapshot; created on the first unanswered ask. */
  private send(event: InputRoundEvent): void {
    this.snapshot ??= initialTransition(inputRoundMachine)[0];
    if (this.snapshot.status !== 'active') return;
    const [next, actions] = transition(inputRoundMachine, this.snapshot, event);
    this.snapshot = next;
    for (const action of actions) {
      if (action.type === 'awaitTurnEnd') nextTurn(() => this.send({ type: 'TURN_ENDED' }));
      else if (action.type === 'answerInputRequired') {
        this.host.endRound({ resultType: 'input_required', inputRequests: this.requests, requestState: this.host.sealState(this.host.answers, spreadMerge(this.host.ids ?? {}, this.ids)) });
      }
    }
  }
}
