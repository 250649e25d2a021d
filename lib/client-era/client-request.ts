/**
 * One outbound request of a client, in either era, as `machines/client-request.machine.ts` says:
 * stepped through a transition table read once from the machine, and mirrored by a real actor
 * (a child of the client's session actor) for an inspector. The client makes one only when an
 * inspector is given: nothing else reads a request's state, and an actor per call costs tens of µs.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { createActor, type AnyActorRef } from 'xstate';
import { clientRequestMachine, type ClientRequestEvent } from '../../machines/client-request.machine.js';
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from '../errors.js';
import type { InputRoundProgress } from '../client-modern/input-rounds.js';

export type ClientRequestState = 'waiting' | 'inputRound' | 'answered' | 'failed' | 'cancelled' | 'timedOut';

type Table = Readonly<Record<string, Readonly<Record<string, ClientRequestState>>>>;

/** The machine's transitions as `state → event type → target` (it has no guards, actions or nesting). */
export function clientRequestTable(machine: typeof clientRequestMachine = clientRequestMachine): Table {
  const table: Record<string, Record<string, ClientRequestState>> = {};
  for (const [name, node] of Object.entries(machine.root.states)) {
    const row: Record<string, ClientRequestState> = {};
    for (const [event, transitions] of node.transitions) {
      const target = transitions[0]?.target?.[0];
      if (target !== undefined) row[event] = target.key as ClientRequestState;
    }
    table[name] = row;
  }
  return table;
}

const TABLE = clientRequestTable();

let inspected = 0;

export class ClientRequest {
  state: ClientRequestState = 'waiting';
  private readonly actor: ReturnType<typeof createActor<typeof clientRequestMachine>>;

  constructor(
    readonly method: string,
    parent: AnyActorRef,
  ) {
    this.actor = createActor(clientRequestMachine, { parent, id: `client-request:${++inspected}` });
    this.actor.start();
  }

  /** The request's actor: the parent of its input rounds. */
  get inspectActor(): AnyActorRef {
    return this.actor;
  }

  /** Follow the request's answer to its final state. */
  follow<T>(answer: Promise<T>): Promise<T> {
    return answer.then(
      (result) => {
        this.step({ type: 'RESULT' });
        return result;
      },
      (e: unknown) => {
        this.step(endOf(e));
        throw e;
      },
    );
  }

  /** A move of the request's input rounds (2026-07-28). */
  round(progress: InputRoundProgress): void {
    if (progress.state === 'answering') this.step({ type: 'INPUT_REQUIRED', round: progress.round });
    else if (progress.state === 'sent') this.step({ type: 'RETRY' });
  }

  /** An event the current state does not take is ignored, as an actor would. */
  private step(event: ClientRequestEvent): void {
    const next = TABLE[this.state]![event.type];
    if (next === undefined) return;
    this.state = next;
    this.actor.send(event);
  }
}

/** How a rejection ends a request: its timeout, its cancellation (or the connection's end), or an error. */
function endOf(e: unknown): ClientRequestEvent {
  if (e instanceof RequestTimeoutError) return { type: 'TIMEOUT' };
  if (e instanceof RequestCancelledError || e instanceof ConnectionClosedError) return { type: 'CANCEL' };
  return e instanceof McpError ? { type: 'ERROR', code: e.code } : { type: 'ERROR' };
}
