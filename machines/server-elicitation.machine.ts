/**
 * One elicitation as the server tracks it, from its `elicitation/create` to its end.
 *
 * - `requested`: the request went out (entry `sendRequest`); the client's answer decides:
 *   `declined`, `cancelled`, or `accepted`. An answer that does not match the request (wrong
 *   action, content not matching the schema) or a failed request (error, timeout, closed
 *   session) ends in `failed`.
 * - Form mode: `accepted.received`: the content is in hand (checked against the schema).
 * - URL mode: `accept` only means the user agreed to open the URL; the interaction happens out
 *   of band, where the server itself observes it finish (its own web route, an OAuth
 *   callback...). `accepted.awaitingCompletion` waits for that (`COMPLETE`, sent by the server
 *   code), then `accepted.completed` sends `notifications/elicitation/complete` to the client
 *   that was asked (entry `sendCompleteNotification`). Waiting ends in `expired` after
 *   `completionTimeout`, or `abandoned` when the session closes. A `COMPLETE` that arrives
 *   before the client's answer is remembered and honoured once the answer is `accept`.
 *
 * Terminal states carry the tag `settled` (nested finals do not end the actor by themselves;
 * the runtime stops it on that tag). No I/O here: `sendRequest` and
 * `sendCompleteNotification` are supplied with `serverElicitationMachine.provide({ actions })`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import { assign, cancel, raise, setup } from 'xstate';

/** Default wait for the out-of-band completion of a URL elicitation: 30 minutes. */
export const DEFAULT_SERVER_ELICITATION_COMPLETION_TIMEOUT_MS = 30 * 60_000;

/** An error as the machine keeps it (plain data, so snapshots stay serialisable). */
export interface ServerElicitationError {
  code: number;
  message: string;
  data?: unknown;
}

export interface ServerElicitationInput {
  mode: 'form' | 'url';
  /** URL mode: the id sent in the request and in the completion notification. */
  elicitationId?: string;
  /** URL mode: ms to wait for the completion before `expired`. */
  completionTimeout?: number;
}

export interface ServerElicitationContext {
  mode: 'form' | 'url';
  elicitationId: string | undefined;
  completionTimeout: number;
  /** The client's answer. */
  action: 'accept' | 'decline' | 'cancel' | undefined;
  /** Form mode: the accepted content. */
  content: Record<string, unknown> | undefined;
  /** Why it failed. */
  error: ServerElicitationError | undefined;
  /** The server saw the interaction finish before the client's answer arrived. */
  completedEarly: boolean;
}

export type ServerElicitationEvent =
  | { type: 'ANSWERED'; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }
  | { type: 'ANSWER_INVALID'; error: ServerElicitationError }
  | { type: 'REQUEST_FAILED'; error: ServerElicitationError }
  | { type: 'COMPLETE' }
  | { type: 'COMPLETION_TIMEOUT' }
  | { type: 'SESSION_CLOSED' };

export const serverElicitationMachine = setup({
  types: {
    context: {} as ServerElicitationContext,
    events: {} as ServerElicitationEvent,
    input: {} as ServerElicitationInput,
  },
  actions: {
    // I/O placeholders, supplied by the runtime through `.provide({ actions })`.
    sendRequest: () => {},
    sendCompleteNotification: () => {},
    assignAnswer: assign({
      action: ({ event }) => (event.type === 'ANSWERED' ? event.action : undefined),
      content: ({ event }) => (event.type === 'ANSWERED' ? event.content : undefined),
    }),
    assignError: assign({
      error: ({ event }) => (event.type === 'ANSWER_INVALID' || event.type === 'REQUEST_FAILED' ? event.error : undefined),
    }),
    markCompletedEarly: assign({ completedEarly: true }),
    startCompletionTimer: raise({ type: 'COMPLETION_TIMEOUT' }, { id: 'serverElicitation.completionTimeout', delay: 'completionTimeout' }),
    cancelCompletionTimer: cancel('serverElicitation.completionTimeout'),
  },
  guards: {
    isAcceptUrl: ({ context, event }) => event.type === 'ANSWERED' && event.action === 'accept' && context.mode === 'url',
    isAccept: ({ event }) => event.type === 'ANSWERED' && event.action === 'accept',
    isDecline: ({ event }) => event.type === 'ANSWERED' && event.action === 'decline',
    isUrlMode: ({ context }) => context.mode === 'url',
    wasCompletedEarly: ({ context }) => context.completedEarly,
  },
  delays: {
    completionTimeout: ({ context }) => context.completionTimeout,
  },
}).createMachine({
  id: 'serverElicitation',
  context: ({ input }) => ({
    mode: input.mode,
    elicitationId: input.elicitationId,
    completionTimeout: input.completionTimeout ?? DEFAULT_SERVER_ELICITATION_COMPLETION_TIMEOUT_MS,
    action: undefined,
    content: undefined,
    error: undefined,
    completedEarly: false,
  }),
  initial: 'requested',
  states: {
    requested: {
      description: 'elicitation/create is out; waiting for the client (the user) to answer.',
      entry: 'sendRequest',
      on: {
        ANSWERED: [
          { guard: 'isAcceptUrl', target: 'accepted.awaitingCompletion', actions: 'assignAnswer' },
          { guard: 'isAccept', target: 'accepted.received', actions: 'assignAnswer' },
          { guard: 'isDecline', target: 'declined', actions: 'assignAnswer' },
          { target: 'cancelled', actions: 'assignAnswer' },
        ],
        ANSWER_INVALID: { target: 'failed', actions: 'assignError' },
        REQUEST_FAILED: { target: 'failed', actions: 'assignError' },
        COMPLETE: { guard: 'isUrlMode', actions: 'markCompletedEarly' },
      },
    },
    accepted: {
      description: 'The user accepted. Form mode: content received. URL mode: consent to open the URL given.',
      initial: 'received',
      states: {
        received: {
          description: 'Form mode: the content, checked against the requested schema.',
          type: 'final',
          tags: ['settled'],
        },
        awaitingCompletion: {
          description: 'URL mode: the interaction happens out of band; the server observes its end.',
          entry: 'startCompletionTimer',
          exit: 'cancelCompletionTimer',
          always: { guard: 'wasCompletedEarly', target: 'completed' },
          on: {
            COMPLETE: { target: 'completed' },
            COMPLETION_TIMEOUT: { target: 'expired' },
            SESSION_CLOSED: { target: 'abandoned' },
          },
        },
        completed: {
          description: 'The server saw the interaction finish and told the client that asked.',
          type: 'final',
          tags: ['settled'],
          entry: 'sendCompleteNotification',
        },
        expired: {
          description: 'No completion within completionTimeout.',
          type: 'final',
          tags: ['settled'],
        },
        abandoned: {
          description: 'The session closed before the interaction finished.',
          type: 'final',
          tags: ['settled'],
        },
      },
    },
    declined: { description: 'The user explicitly declined.', type: 'final', tags: ['settled'] },
    cancelled: { description: 'The user dismissed the request without choosing.', type: 'final', tags: ['settled'] },
    failed: { description: 'The request failed, or the answer did not match the request.', type: 'final', tags: ['settled'] },
  },
});

export type ServerElicitationMachine = typeof serverElicitationMachine;
