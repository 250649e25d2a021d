/**
 * What `replay --check` and `inspect` hold a 2026-07-28 recording to, frame by frame: there is no
 * session (each request carries its envelope), so the lifecycle gate does not apply; instead
 *
 * - each multi round-trip request runs `machines/client-input-rounds.machine.ts` (sent ⇄
 *   answering → complete | failed): a retry must continue a round that is waiting for input, carry
 *   a `requestState` the server handed out byte for byte (or none when it handed out none), and a
 *   new id; only `tools/call`, `prompts/get` and `resources/read` may end input-required;
 * - a `subscriptions/listen` stream's notifications come after its acknowledgement and while it
 *   is open;
 * - the server sends no JSON-RPC requests, and log messages only for a request that set a
 *   `logLevel`.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import { initialTransition, transition } from 'xstate';
import { clientInputRoundsMachine } from '../../machines/client-input-rounds.machine.js';
import { INPUT_REQUIRED_METHODS, META } from '../protocol/schema/modern.js';

type AnyFrame = Record<string, any>;

/** What the rules need of a tracked request. */
export interface ModernRequest {
  id: string;
  method: string;
  /** The request's params (modern requests only). */
  params?: AnyFrame | undefined;
  /** The multi round-trip request it is a round of (the first round's track), once it has one. */
  chain?: ModernChain;
}

/** One multi round-trip request: its rounds machine's state, on the first round's track. */
export interface ModernChain {
  state: string;
  round: number;
  /** The state the last input-required round handed out ('' when none), and the id of that round. */
  handedOut?: { state: string; id: string };
  /** [entry index, state] at each change. */
  states: [number, string][];
}

const INPUT_REQUIRED = new Set<string>(INPUT_REQUIRED_METHODS);
/** The client's bound on rounds (`maxInputRounds`); the machine's `exceeded` is informational here. */
const MAX_ROUNDS = 8;
const roundsMemo = new Map<string, string>();

function nextRoundsState(state: string, event: 'COMPLETE' | 'INPUT_REQUIRED' | 'ANSWERED' | 'FAILED', round: number): string {
  const within = round < MAX_ROUNDS;
  const key = `${state}|${event}|${within}`;
  let next = roundsMemo.get(key);
  if (next === undefined) {
    // Rebuild a snapshot in `state` (the machine's states are flat) with the round count that decides the guard.
    const [start] = initialTransition(clientInputRoundsMachine, { maxRounds: MAX_ROUNDS });
    const snap = clientInputRoundsMachine.resolveState({ value: state, context: { round: within ? 0 : MAX_ROUNDS, maxRounds: MAX_ROUNDS } });
    next = String(transition(clientInputRoundsMachine, snap ?? start, { type: event })[0].value);
    roundsMemo.set(key, next);
  }
  return next;
}

export class ModernRules {
  /** Open listen streams by id: acknowledged yet? */
  private readonly listens = new Map<string, boolean>();
  /** Rounds waiting for a retry, by the state they handed out (JSON of the string), or by method and params when they handed out none. */
  private readonly waiting = new Map<string, ModernChain>();

  constructor(private readonly problem: (message: string) => void) {}

  private step(chain: ModernChain, event: 'COMPLETE' | 'INPUT_REQUIRED' | 'ANSWERED' | 'FAILED', index: number): void {
    const next = nextRoundsState(chain.state, event, chain.round);
    if (event === 'INPUT_REQUIRED') chain.round++;
    if (next !== chain.state) {
      chain.state = next;
      chain.states.push([index, next]);
    }
  }

  /** A modern request from the client. */
  request(f: AnyFrame, r: ModernRequest, index: number): void {
    if (f.method === 'subscriptions/listen') this.listens.set(r.id, false);
    if (!INPUT_REQUIRED.has(f.method)) return;
    const state = f.params?.requestState;
    const retry = f.params?.inputResponses !== undefined || state !== undefined;
    if (!retry) {
      r.chain = { state: 'sent', round: 0, states: [[index, 'sent']] };
      return;
    }
    const key = typeof state === 'string' ? `state ${JSON.stringify(state)}` : `params ${f.method} ${roundKey(f.params)}`;
    const chain = this.waiting.get(key);
    if (!chain) {
      this.problem(
        typeof state === 'string'
          ? `the client retried ${f.method} with a requestState the server never handed out (a state must be echoed byte for byte, and only once per round)`
          : `the client retried ${f.method} (inputResponses) but no round of that request is waiting for input`,
      );
      return;
    }
    this.waiting.delete(key);
    if (chain.handedOut && chain.handedOut.id === r.id) this.problem(`the client retried ${f.method} with the id of the round it answers (${r.id}); each retry needs a new id`);
    r.chain = chain;
    this.step(chain, 'ANSWERED', index);
  }

  /** The server's answer to a modern request. */
  response(f: AnyFrame, r: ModernRequest, index: number): void {
    const input = f.result?.resultType === 'input_required';
    if (input && !INPUT_REQUIRED.has(r.method)) this.problem(`the server answered ${r.method} input_required; only tools/call, prompts/get and resources/read may`);
    if (r.method === 'subscriptions/listen') this.listens.delete(r.id);
    const chain = r.chain;
    if (!chain) return;
    if (!input) {
      this.step(chain, f.error ? 'FAILED' : 'COMPLETE', index);
      return;
    }
    if (f.result.inputRequests === undefined && f.result.requestState === undefined) this.problem(`the server answered ${r.method} input_required with neither inputRequests nor requestState`);
    this.step(chain, 'INPUT_REQUIRED', index);
    const state = f.result.requestState;
    chain.handedOut = { state: typeof state === 'string' ? state : '', id: r.id };
    this.waiting.set(typeof state === 'string' ? `state ${JSON.stringify(state)}` : `params ${r.method} ${roundKey(r.params)}`, chain);
  }

  /** A notification the server sent on a listen stream; false when it carries no subscription id. */
  listenNotification(f: AnyFrame): boolean {
    const sub = f.params?._meta?.[META.subscriptionId];
    if (sub === undefined) return false;
    const id = JSON.stringify(sub);
    const acked = this.listens.get(id);
    if (f.method === 'notifications/subscriptions/acknowledged') {
      if (acked === undefined) this.problem(`the server acknowledged subscription ${id}, which is no open listen request`);
      else if (acked) this.problem(`the server acknowledged subscription ${id} twice`);
      else this.listens.set(id, true);
    } else if (acked === undefined) {
      this.problem(`the server sent ${f.method} on subscription ${id}, which is not open`);
    } else if (!acked) {
      this.problem(`the server sent ${f.method} on subscription ${id} before acknowledging it`);
    }
    return true;
  }

  /** The client cancelled a request (stdio) or closed its stream (HTTP). */
  cancelled(id: string): void {
    this.listens.delete(id);
  }

  /** A log message the server sent for `r`. */
  logMessage(r: ModernRequest): void {
    if (r.params?._meta?.[META.logLevel] === undefined) this.problem(`the server sent notifications/message for ${r.method} ${r.id}, which set no logLevel`);
  }

  serverRequest(f: AnyFrame): void {
    this.problem(`the server sent a ${f.method} request; in revision 2026-07-28 servers send no requests (input goes in input_required results)`);
  }
}

function roundKey(params: unknown): string {
  if (params === null || typeof params !== 'object') return '{}';
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params as Record<string, unknown>;
  return JSON.stringify(rest);
}
