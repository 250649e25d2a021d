/**
 * Multi round-trip requests on the client: send, and while the server answers
 * `resultType: "input_required"`, fulfil every input request of the round with the client's own
 * handlers (all at once), then send the request again (new id) with `inputResponses` and the
 * unchanged `requestState`. Walks `clientInputRoundsMachine` with `transition()`; with an
 * inspector, the same events also drive an actor of that machine parented to the client's
 * session actor, so the inspector sees each request's rounds.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { createActor, initialTransition, transition, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { clientInputRoundsMachine } from '../../machines/client-input-rounds.machine.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { InputRoundsExceededError, InvalidInputRequiredError, MalformedResultTypeError, UnsupportedInputRequestError } from './modern-client-errors.js';

/** Methods a server may answer with `input_required`. */
export const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Answers one input request (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export type InputAnswerer = (method: string, params: JsonObject | undefined, key: string, signal: AbortSignal | undefined) => Promise<JsonObject>;

/**
 * Where a request that needed input rounds is, each time it moves (the input-rounds machine's
 * state): `answering` round N (the client's handlers are asked for `inputRequests`), `sent` (the
 * request went again with the responses), then `complete`, `exceeded` or `failed`. A request whose
 * first answer is complete has no rounds and reports nothing.
 */
export interface InputRoundProgress {
  state: 'sent' | 'answering' | 'complete' | 'exceeded' | 'failed';
  /** Input-required rounds so far (1 in the first round). */
  round: number;
  /** The round's input requests, by key (while `answering`). */
  inputRequests?: { key: string; method: string }[];
}

export interface InputRoundsOptions {
  maxRounds: number;
  /** Told of every move once a round is needed (see {@link InputRoundProgress}). */
  report?(progress: InputRoundProgress): void;
  /** The answerer for a method, or undefined when the client has none. */
  answererFor(method: string): InputAnswerer | undefined;
  /** Extra `resultType` values extensions the client declared accept (none by default). */
  extraResultTypes?: readonly string[];
  signal?: AbortSignal;
  /** The actor an inspector sees as the rounds' parent (the client's session actor), or none without an inspector. */
  inspectParent?(): AnyActorRef | undefined;
}

/** Numbers inspected input-rounds actors. */
let inspected = 0;

/** What a result's `resultType` says: absent means complete (servers of earlier revisions). */
export function readResultType(method: string, result: JsonObject, extra: readonly string[] = []): 'complete' | 'input_required' | string {
  const t = result.resultType;
  if (t === undefined) return 'complete';
  if (t === 'complete' || t === 'input_required' || (typeof t === 'string' && extra.includes(t))) return t;
  throw new MalformedResultTypeError(method, t);
}

type Snapshot = SnapshotFrom<typeof clientInputRoundsMachine>;

/**
 * Run `method` through its input rounds. `send` sends it once with the given extra params
 * (`inputResponses`, `requestState`); the final complete result is returned.
 */
export async function runInputRounds(
  method: string,
  send: (extra: JsonObject) => Promise<JsonObject>,
  options: InputRoundsOptions,
): Promise<JsonObject> {
  // The machine is entered only once a round is needed: a complete first answer (nearly every
  // call) costs no snapshot, and taking the machine's path to `done` would change nothing.
  let machineSnap: Snapshot | undefined;
  // Only with an inspector, and only once a round is needed: an actor mirroring the transitions.
  let actor: ReturnType<typeof createActor<typeof clientInputRoundsMachine>> | undefined;
  const current = (): Snapshot => {
    if (machineSnap === undefined) {
      machineSnap = initialTransition(clientInputRoundsMachine, { maxRounds: options.maxRounds })[0];
      const parent = options.inspectParent?.();
      if (parent !== undefined) {
        actor = createActor(clientInputRoundsMachine, { parent, id: `input-rounds:${++inspected}`, input: { maxRounds: options.maxRounds } });
        actor.start();
      }
    }
    return machineSnap;
  };
  const step = (type: 'COMPLETE' | 'INPUT_REQUIRED' | 'ANSWERED' | 'FAILED') => {
    if (machineSnap === undefined && (type === 'COMPLETE' || type === 'FAILED')) return;
    machineSnap = transition(clientInputRoundsMachine, current(), { type })[0];
    actor?.send({ type });
    // 'answering' is told once its input requests are known (below).
    if (options.report && machineSnap.value !== 'answering') options.report({ state: machineSnap.value as InputRoundProgress['state'], round: machineSnap.context.round });
  };
  let extra: JsonObject = {};
  for (;;) {
    let result: JsonObject;
    try {
      result = await send(extra);
    } catch (e) {
      step('FAILED');
      throw e;
    }
    const type = readResultType(method, result, options.extraResultTypes);
    if (type !== 'input_required') {
      step('COMPLETE');
      return result;
    }
    if (!MRTR_METHODS.has(method)) {
      step('FAILED');
      throw new InvalidInputRequiredError(method, 'only tools/call, prompts/get and resources/read may ask for input');
    }
    step('INPUT_REQUIRED');
    if (current().value === 'exceeded') throw new InputRoundsExceededError(method, current().context.round + 1);
    const requests = result.inputRequests;
    const state = result.requestState;
    if (requests !== undefined && (requests === null || typeof requests !== 'object' || Array.isArray(requests))) {
      step('FAILED');
      throw new InvalidInputRequiredError(method, 'inputRequests must be an object');
    }
    if (state !== undefined && typeof state !== 'string') {
      step('FAILED');
      throw new InvalidInputRequiredError(method, 'requestState must be a string');
    }
    if (requests === undefined && state === undefined) {
      step('FAILED');
      throw new InvalidInputRequiredError(method, 'it has neither inputRequests nor requestState');
    }
    const entries = Object.entries((requests ?? {}) as Record<string, unknown>);
    // Check every ask before answering any: nothing is shown to the user for a round that cannot complete.
    const planned = entries.map(([key, req]) => {
      const r = req as { method?: unknown; params?: unknown } | null;
      const m = typeof r?.method === 'string' ? r.method : String(r?.method);
      const answer = options.answererFor(m);
      if (!answer) {
        step('FAILED');
        throw new UnsupportedInputRequestError(method, key, m);
      }
      return { key, m, params: (r?.params ?? undefined) as JsonObject | undefined, answer };
    });
    options.report?.({ state: 'answering', round: current().context.round, inputRequests: planned.map((p) => ({ key: p.key, method: p.m })) });
    let responses: JsonObject[];
    try {
      responses = await Promise.all(planned.map((p) => p.answer(p.m, p.params, p.key, options.signal)));
    } catch (e) {
      step('FAILED');
      throw e;
    }
    step('ANSWERED');
    extra = {};
    if (planned.length > 0) extra.inputResponses = Object.fromEntries(planned.map((p, i) => [p.key, responses[i]!]));
    if (state !== undefined) extra.requestState = state;
  }
}
