/**
 * One elicitation on the client, from the server's `elicitation/create` (or a -32042 error's
 * required URL elicitation) to its end.
 *
 * - Form mode: `presenting` (the host's form handler shows the form) → `validating` (the answer is
 *   checked against the restricted schema, with SEP-1034 defaults filled in when asked) →
 *   `accepted`, or back to `presenting` with the errors, or `declined` / `cancelled`.
 * - URL mode: `consent` (the host sees the URL and its domain; nothing is opened yet) → `opening`
 *   → `opened` (the `accept` answer goes out) waiting for `notifications/elicitation/complete` →
 *   `completed`; after `completionTimeout` it reports `stale` and waits for the user's manual
 *   `RETRY` or `CANCEL`. In revision 2026-07-28 (an input request of a multi round-trip request)
 *   there is no completion notification: once opened it ends `handedBack` (the `accept` answer
 *   goes back with the retried request, whose result tells how the interaction went).
 * - A mode the client did not declare, or invalid params: `rejected` (answered -32602).
 *
 * No I/O here: `present`, `askConsent`, `openUrl` and `respond` are supplied by the client with
 * `clientElicitationMachine.provide({ actions })`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import { assign, cancel, raise, setup } from 'xstate';
import type { ElicitRequestedSchema } from '../lib/protocol/schema/elicitation.js';
import { fillFormDefaults, validateFormAnswer, type FieldError } from '../lib/client-features/form-schema.js';

/** Default wait for `notifications/elicitation/complete` before a URL elicitation reports stale. */
export const DEFAULT_ELICITATION_COMPLETION_TIMEOUT_MS = 10 * 60_000;
/** Default number of times a form is presented again after an invalid answer, in all. */
export const DEFAULT_ELICITATION_MAX_ATTEMPTS = 3;

/** How an elicitation ends as far as the server's request is concerned. */
export type ElicitationOutcome = 'accept' | 'decline' | 'cancel' | 'reject' | 'fail';

export interface ClientElicitationInput {
  /** The requested mode (`form` when the request had none). */
  mode: string;
  /** The client declared (and the revision allows) form mode / URL mode. */
  formDeclared: boolean;
  urlDeclared: boolean;
  /** What is wrong with the request's params, if anything (answered -32602). */
  problem?: string;
  /** Form mode: the restricted schema. */
  requestedSchema?: ElicitRequestedSchema;
  /** Fill omitted fields that have defaults (SEP-1034). */
  applyDefaults?: boolean;
  /** Form presentations in all before giving up on invalid answers. */
  maxAttempts?: number;
  /** URL mode: ms to wait for the completion notification before reporting stale. */
  completionTimeout?: number;
  /** URL mode: a completion notification can come (2025-11-25). Default true; false in 2026-07-28. */
  awaitsCompletion?: boolean;
}

export interface ClientElicitationContext {
  mode: string;
  formDeclared: boolean;
  urlDeclared: boolean;
  problem: string | undefined;
  requestedSchema: ElicitRequestedSchema | undefined;
  applyDefaults: boolean;
  maxAttempts: number;
  completionTimeout: number;
  awaitsCompletion: boolean;
  /** Form presentations so far. */
  attempts: number;
  /** The last answer (with defaults filled in when asked). */
  content: unknown;
  /** What was wrong with the last answer. */
  errors: FieldError[];
  /** Why it failed, or why the URL could not be opened. */
  failure: string | undefined;
}

export type ClientElicitationEvent =
  | { type: 'SUBMIT'; content: unknown }
  | { type: 'DECLINE' }
  | { type: 'CANCEL' }
  | { type: 'FAIL'; message: string }
  | { type: 'ACCEPT' }
  | { type: 'OPENED' }
  | { type: 'OPEN_FAILED'; message: string }
  | { type: 'COMPLETE' }
  | { type: 'RETRY' }
  | { type: 'COMPLETION_TIMEOUT' }
  | { type: 'ABORT'; reason?: unknown };

export const clientElicitationMachine = setup({
  types: {
    context: {} as ClientElicitationContext,
    events: {} as ClientElicitationEvent,
    input: {} as ClientElicitationInput,
  },
  actions: {
    // I/O placeholders, supplied by the client through `.provide({ actions })`.
    present: () => {},
    askConsent: () => {},
    openUrl: () => {},
    respond: (_, _params: { outcome: ElicitationOutcome }) => {},
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    assignAnswer: assign(({ context, event }) => {
      if (event.type !== 'SUBMIT' || !context.requestedSchema) return {};
      const content = context.applyDefaults ? fillFormDefaults(context.requestedSchema, event.content) : event.content;
      return { content, errors: validateFormAnswer(context.requestedSchema, content) };
    }),
    assignModeProblem: assign({
      problem: ({ context }) =>
        context.mode === 'form' || context.mode === 'url'
          ? `Elicitation mode "${context.mode}" is not supported: the client did not declare it in its elicitation capability`
          : `Unknown elicitation mode ${JSON.stringify(context.mode)}: expected "form" or "url"`,
    }),
    assignFailure: assign({
      failure: ({ event }) => (event.type === 'FAIL' || event.type === 'OPEN_FAILED' ? event.message : undefined),
    }),
    assignInvalidAnswer: assign({
      failure: ({ context }) =>
        `The answer did not match the requested schema after ${context.attempts} attempt(s): ` +
        context.errors.map((e) => (e.field ? `${e.field} ${e.message}` : e.message)).join('; '),
    }),
    startCompletionTimer: raise({ type: 'COMPLETION_TIMEOUT' }, { id: 'completionTimeout', delay: 'completionTimeout' }),
    cancelCompletionTimer: cancel('completionTimeout'),
  },
  guards: {
    paramsInvalid: ({ context }) => context.problem !== undefined,
    formAllowed: ({ context }) => context.mode === 'form' && context.formDeclared,
    urlAllowed: ({ context }) => context.mode === 'url' && context.urlDeclared,
    answerValid: ({ context }) => context.errors.length === 0,
    attemptsLeft: ({ context }) => context.attempts < context.maxAttempts,
    awaitsCompletion: ({ context }) => context.awaitsCompletion,
  },
  delays: {
    completionTimeout: ({ context }) => context.completionTimeout,
  },
}).createMachine({
  id: 'clientElicitation',
  context: ({ input }) => ({
    mode: input.mode,
    formDeclared: input.formDeclared,
    urlDeclared: input.urlDeclared,
    problem: input.problem,
    requestedSchema: input.requestedSchema,
    applyDefaults: input.applyDefaults ?? false,
    maxAttempts: input.maxAttempts ?? DEFAULT_ELICITATION_MAX_ATTEMPTS,
    completionTimeout: input.completionTimeout ?? DEFAULT_ELICITATION_COMPLETION_TIMEOUT_MS,
    awaitsCompletion: input.awaitsCompletion ?? true,
    attempts: 0,
    content: undefined,
    errors: [],
    failure: undefined,
  }),
  initial: 'received',
  on: {
    // The server cancelled its request, or the session closed: nothing more goes out.
    ABORT: { target: '.aborted' },
  },
  states: {
    received: {
      description: 'The request arrived: its params and mode are checked first.',
      always: [
        { guard: 'paramsInvalid', target: 'rejected' },
        { guard: 'formAllowed', target: 'form' },
        { guard: 'urlAllowed', target: 'url' },
        { target: 'rejected', actions: 'assignModeProblem' },
      ],
    },
    form: {
      initial: 'presenting',
      on: {
        DECLINE: { target: 'declined' },
        CANCEL: { target: 'cancelled' },
        FAIL: { target: 'failed', actions: 'assignFailure' },
      },
      states: {
        presenting: {
          description: 'The host shows the form (again, with the errors, after an invalid answer).',
          entry: ['countAttempt', 'present'],
          on: { SUBMIT: { target: 'validating', actions: 'assignAnswer' } },
        },
        validating: {
          always: [
            { guard: 'answerValid', target: '#clientElicitation.accepted' },
            { guard: 'attemptsLeft', target: 'presenting' },
            { target: '#clientElicitation.failed', actions: 'assignInvalidAnswer' },
          ],
        },
      },
    },
    url: {
      initial: 'consent',
      states: {
        consent: {
          description: 'The host shows the full URL and its domain and asks the user; nothing is opened or fetched.',
          entry: 'askConsent',
          on: {
            ACCEPT: { target: 'opening' },
            DECLINE: { target: '#clientElicitation.declined' },
            CANCEL: { target: '#clientElicitation.cancelled' },
            FAIL: { target: '#clientElicitation.failed', actions: 'assignFailure' },
          },
        },
        opening: {
          entry: 'openUrl',
          on: {
            OPENED: [{ guard: 'awaitsCompletion', target: 'opened' }, { target: '#clientElicitation.handedBack' }],
            OPEN_FAILED: { target: '#clientElicitation.cancelled', actions: 'assignFailure' },
            CANCEL: { target: '#clientElicitation.cancelled' },
          },
        },
        opened: {
          description: 'Accepted and opened; waiting for notifications/elicitation/complete.',
          entry: [{ type: 'respond', params: { outcome: 'accept' } }],
          initial: 'awaiting',
          on: {
            COMPLETE: { target: '#clientElicitation.completed' },
            RETRY: { target: '#clientElicitation.retried' },
            CANCEL: { target: '#clientElicitation.abandoned' },
          },
          states: {
            awaiting: {
              entry: 'startCompletionTimer',
              exit: 'cancelCompletionTimer',
              on: { COMPLETION_TIMEOUT: { target: 'stale' } },
            },
            stale: {
              description: 'No completion came in time: the user may retry or cancel by hand.',
            },
          },
        },
      },
    },
    accepted: { type: 'final', entry: [{ type: 'respond', params: { outcome: 'accept' } }] },
    declined: { type: 'final', entry: [{ type: 'respond', params: { outcome: 'decline' } }] },
    cancelled: { type: 'final', entry: [{ type: 'respond', params: { outcome: 'cancel' } }] },
    rejected: {
      description: 'Invalid params or an undeclared mode: answered -32602.',
      type: 'final',
      entry: [{ type: 'respond', params: { outcome: 'reject' } }],
    },
    failed: {
      description: 'The host failed, or kept giving invalid answers: answered -32603.',
      type: 'final',
      entry: [{ type: 'respond', params: { outcome: 'fail' } }],
    },
    handedBack: {
      description: 'Opened (2026-07-28): the accept answer goes back with the retried request; no completion notification exists.',
      type: 'final',
      entry: [{ type: 'respond', params: { outcome: 'accept' } }],
    },
    completed: { type: 'final', description: 'The server said the out-of-band interaction finished.' },
    retried: { type: 'final', description: 'The user chose to go on without the completion notification.' },
    abandoned: { type: 'final', description: 'The user gave up waiting for the completion.' },
    aborted: { type: 'final', description: 'The server cancelled the request or the session closed.' },
  },
});

export type ClientElicitationMachine = typeof clientElicitationMachine;
