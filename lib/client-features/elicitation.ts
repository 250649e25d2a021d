/**
 * Elicitation on the client: each `elicitation/create` (and each URL elicitation a -32042 error
 * requires) runs as one `clientElicitationMachine` actor; the host's handlers present the form or
 * ask consent for the URL, and the machine decides what goes back to the server.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import { BehaviorSubject, Observable, Subject } from 'rxjs';
import { createActor, type Actor, type AnyActorRef, type SnapshotFrom } from 'xstate';
import {
  clientElicitationMachine,
  type ClientElicitationEvent,
  type ClientElicitationInput,
  type ElicitationOutcome,
} from '../../machines/client-elicitation.machine.js';
import type { PeerInfo } from '../../machines/session.machine.js';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { supportsElicitationMode } from '../protocol/methods.js';
import { allows, type Revision } from '../protocol/revisions.js';
import type { ElicitAction, ElicitRequestedSchema, ElicitRequestURLParams, ElicitResult } from '../protocol/schema/elicitation.js';
import type { RateLimit } from '../server-features/rate-limit.js';
import type { RequestHandlerContext } from '../session/session.js';
import { ElicitationNotCompletedError } from './client-feature-errors.js';
import { checkRequestedSchema, formDefaults, type FieldError, type FormContent } from './form-schema.js';

/**
 * A form-mode elicitation as the host's form handler sees it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#form-mode-elicitation-requests
 */
export interface FormElicitationRequest {
  mode: 'form';
  /** Why the server asks. */
  message: string;
  requestedSchema: ElicitRequestedSchema;
  /** The fields' defaults, to pre-fill the form with (SEP-1034). */
  defaults: FormContent;
  /** Which server asks (show it: the user must see who is requesting). */
  server: PeerInfo | undefined;
}

/** What the form handler knows besides the request. */
export interface FormElicitationContext {
  /** Aborted when the server cancels its request or the session closes: close the form. */
  signal: AbortSignal;
  /** 1 the first time; more when the form is shown again after an invalid answer. */
  attempt: number;
  /** Why the previous answer was refused (empty the first time). */
  errors: FieldError[];
  /** The previous answer, to let the user correct it. */
  previous: unknown;
}

/** The user's answer to a form. */
export type FormElicitationAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

/**
 * Shows a form and returns what the user did. An accepted answer is validated against the schema
 * before anything is sent; an invalid one brings the form back with `errors`.
 */
export type FormElicitationHandler = (request: FormElicitationRequest, ctx: FormElicitationContext) => FormElicitationAnswer | Promise<FormElicitationAnswer>;

/**
 * A URL-mode elicitation as the host's consent handler sees it: the URL is not opened or fetched
 * before the user consents.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#safe-url-handling
 */
export interface UrlElicitationRequest {
  mode: 'url';
  /** The full URL: show all of it. */
  url: string;
  /** Its host, to highlight (subdomain spoofing). */
  domain: string;
  /** The host has punycode (`xn--`) labels: warn the user, it may imitate another name. */
  punycode: boolean;
  /** The server's id for it (2025-11-25); undefined in 2026-07-28, which removed it. */
  elicitationId: string | undefined;
  /** Why the server wants the user there. */
  message: string;
  /** Which server asks. */
  server: PeerInfo | undefined;
  /** From an `elicitation/create` request, or required by a -32042 error. */
  origin: 'request' | 'error';
}

/** Manual controls for a URL elicitation whose completion notification may never come. */
export interface UrlElicitationControl {
  /** Aborted when the elicitation ends. */
  readonly signal: AbortSignal;
  /** Where the elicitation stands (`consent`, `opening`, `awaiting`, `stale`, `completed`...). */
  readonly status$: Observable<ElicitationStatus>;
  /** Go on without waiting for the completion notification (retries the original request). */
  retry(): void;
  /** Give up (before consent: answers `cancel`; after: stops waiting). */
  cancel(): void;
}

/** The user's consent decision. */
export type UrlElicitationAnswer = ElicitAction | { action: ElicitAction };

/**
 * Shows the URL and its domain and asks the user whether to open it. In 2026-07-28
 * (`elicitationId` undefined) the call is retried with the answer as soon as this resolves, and
 * only the retry tells whether the user finished on the page: a handler that can, waits here for
 * the user to say they are done (or to cancel), as the CLI does.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation#url-mode-elicitation-requests
 */
export type UrlElicitationHandler = (request: UrlElicitationRequest, control: UrlElicitationControl) => UrlElicitationAnswer | Promise<UrlElicitationAnswer>;

/**
 * What `client.onElicitation(...)` takes. Declares `elicitation.form` when `form` is given and
 * `elicitation.url` when `url` is given.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#capabilities
 */
export interface ElicitationOptions {
  form?: FormElicitationHandler;
  url?: UrlElicitationHandler;
  /** Fill omitted fields that have a default before validating and sending (SEP-1034). */
  applyDefaults?: boolean;
  /**
   * Opens a consented URL in a way the client and the model cannot inspect (the system browser,
   * SFSafariViewController...). Without it, the consent handler is taken to open the URL itself
   * when it accepts. A rejection answers `cancel`.
   */
  openUrl?: (url: string, request: UrlElicitationRequest) => void | Promise<void>;
  /**
   * How long to wait for `notifications/elicitation/complete` before reporting stale (ms).
   * Default 10 minutes; for the elicitations a -32042 error requires, 30 s while the server has
   * not yet sent a completion notification, after which the call is retried by itself (the
   * `control.retry()` given to the consent handler retries sooner).
   */
  completionTimeout?: number;
  /** Form presentations in all before giving up on invalid answers (answered -32603). Default 3. */
  maxAttempts?: number;
  /**
   * At most `limit` elicitations per `windowMs` from this server; those over it are answered
   * -32603 saying when to retry, without bothering the user. Off by default.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#security-considerations
   */
  rateLimit?: RateLimit;
}

/** One elicitation's state, for a UI. */
export interface ElicitationStatus {
  /** Local number of this elicitation. */
  key: number;
  mode: string;
  origin: 'request' | 'error';
  /** The machine's innermost state: `presenting`, `validating`, `consent`, `opening`, `awaiting`, `stale`, or a final one. */
  state: string;
  /** Ended (a final state). */
  done: boolean;
  elicitationId: string | undefined;
  message: string | undefined;
  /** Form presentations so far. */
  attempts: number;
  /** Why the last form answer was refused. */
  errors: FieldError[];
  /** Why it failed, if it did. */
  failure: string | undefined;
}

type ElicitationActor = Actor<typeof clientElicitationMachine>;
type ElicitationSnapshot = SnapshotFrom<typeof clientElicitationMachine>;

/** What the service needs from its client. */
export interface ElicitationDeps {
  clock: Clock;
  serverInfo(): PeerInfo | undefined;
  revision(): Revision | undefined;
  localCapabilities(): Record<string, unknown>;
  /** The client's session actor when it runs as one (an inspector is set): the elicitation's parent, whose inspector sees it. */
  parent?(): AnyActorRef | undefined;
}

const parentOption = (parent: AnyActorRef | undefined): { parent?: AnyActorRef } => (parent ? { parent } : {});

const defer = <T>(fn: () => T | Promise<T>): Promise<T> => Promise.resolve().then(fn);

function leafState(value: unknown): string {
  let v = value;
  while (v !== null && typeof v === 'object') v = Object.values(v as Record<string, unknown>)[0];
  return String(v);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Why URL-mode params are invalid, or undefined: a message, an `elicitationId` (2025-11-25; 2026-07-28
 * removed it: `withId` false), and a valid http(s) URL without credentials.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-mode-elicitation-requests
 * @see https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation
 */
export function checkUrlElicitationParams(p: unknown, withId = true): string | undefined {
  if (!isObject(p)) return 'params are required';
  if (typeof p.message !== 'string') return '"message" must be a string';
  if (withId && (typeof p.elicitationId !== 'string' || p.elicitationId === '')) return '"elicitationId" must be a non-empty string';
  if (!withId && p.elicitationId !== undefined && (typeof p.elicitationId !== 'string' || p.elicitationId === '')) return '"elicitationId" must be a non-empty string when present';
  if (typeof p.url !== 'string') return '"url" must be a string';
  let u: URL;
  try {
    u = new URL(p.url);
  } catch {
    return `"url" must be a valid URL, got ${JSON.stringify(p.url)}`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `"url" must be an http or https URL, got ${JSON.stringify(u.protocol)}`;
  if (u.username || u.password) return '"url" must not carry credentials';
  return undefined;
}

/**
 * Why form-mode params are invalid, or undefined.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#form-mode-elicitation-requests
 */
export function checkFormElicitationParams(p: unknown): string | undefined {
  if (!isObject(p)) return 'params are required';
  if (typeof p.message !== 'string') return '"message" must be a string';
  return checkRequestedSchema(p.requestedSchema);
}

interface FlowSetup {
  origin: 'request' | 'error';
  params: JsonObject;
  input: ClientElicitationInput;
  form?: FormElicitationHandler;
  url?: UrlElicitationHandler;
  openUrl?: ElicitationOptions['openUrl'];
  respond?: (outcome: ElicitationOutcome, snapshot: ElicitationSnapshot['context']) => void;
  signal?: AbortSignal;
}

/** One running elicitation. */
/**
 * After consenting to a URL elicitation that a -32042 error required, how long (ms) to wait for
 * `notifications/elicitation/complete` before retrying the call anyway, while the server has not
 * shown that it sends them (`completionTimeout` overrides).
 */
export const DEFAULT_REQUIRED_ELICITATION_RETRY_MS = 30_000;

class ElicitationFlow {
  readonly actor: ElicitationActor;
  readonly status$: BehaviorSubject<ElicitationStatus>;
  readonly done: Promise<string>;
  readonly elicitationId: string | undefined;
  private readonly controller = new AbortController();
  private finish!: (state: string) => void;

  constructor(
    readonly key: number,
    private readonly service: ElicitationService,
    private readonly setup: FlowSetup,
  ) {
    this.elicitationId = typeof setup.params.elicitationId === 'string' ? setup.params.elicitationId : undefined;
    this.done = new Promise((resolve) => (this.finish = resolve));
    const urlRequest = this.urlRequest();
    const control: UrlElicitationControl = {
      signal: this.controller.signal,
      status$: new Observable((s) => this.status$.subscribe(s)),
      retry: () => this.send({ type: 'RETRY' }),
      cancel: () => this.send({ type: 'CANCEL' }),
    };
    this.actor = createActor(
      clientElicitationMachine.provide({
        actions: {
          present: ({ context }) => {
            const form = this.setup.form;
            const request: FormElicitationRequest = {
              mode: 'form',
              message: setup.params.message as string,
              requestedSchema: setup.params.requestedSchema as ElicitRequestedSchema,
              defaults: formDefaults(setup.params.requestedSchema as ElicitRequestedSchema),
              server: service.deps.serverInfo(),
            };
            const ctx: FormElicitationContext = {
              signal: this.controller.signal,
              attempt: context.attempts,
              errors: context.errors,
              previous: context.content,
            };
            defer(() => form!(request, ctx)).then(
              (answer) => this.send(formEvent(answer)),
              (e: unknown) => this.send({ type: 'FAIL', message: `The form handler failed: ${(e as Error)?.message ?? String(e)}` }),
            );
          },
          askConsent: () => {
            const handler = this.setup.url!;
            defer(() => handler(urlRequest!, control)).then(
              (answer) => this.send(consentEvent(answer)),
              (e: unknown) => this.send({ type: 'FAIL', message: `The URL consent handler failed: ${(e as Error)?.message ?? String(e)}` }),
            );
          },
          openUrl: () => {
            const open = this.setup.openUrl;
            defer(() => (open ? open(urlRequest!.url, urlRequest!) : undefined)).then(
              () => this.send({ type: 'OPENED' }),
              (e: unknown) => this.send({ type: 'OPEN_FAILED', message: `Could not open the URL: ${(e as Error)?.message ?? String(e)}` }),
            );
          },
          respond: ({ context }, params) => this.setup.respond?.(params.outcome, context),
        },
      }),
      { input: setup.input, clock: service.deps.clock, ...parentOption(service.deps.parent?.()) },
    );
    this.status$ = new BehaviorSubject(this.statusOf(this.actor.getSnapshot()));
    this.actor.subscribe((snapshot) => this.onSnapshot(snapshot));
    if (setup.signal) {
      if (setup.signal.aborted) queueMicrotask(() => this.send({ type: 'ABORT', reason: setup.signal!.reason }));
      else setup.signal.addEventListener('abort', () => this.send({ type: 'ABORT', reason: setup.signal!.reason }), { once: true });
    }
  }

  start(): void {
    this.actor.start();
    // An actor that ends during start() (rejected at once) reports its final snapshot here.
    this.onSnapshot(this.actor.getSnapshot());
  }

  send(event: ClientElicitationEvent): void {
    if (this.actor.getSnapshot().status === 'active') this.actor.send(event);
  }

  /** In `url.opened` (awaiting or stale): the completion notification applies. */
  get awaitingCompletion(): boolean {
    const s = this.actor.getSnapshot();
    return s.status === 'active' && s.matches({ url: 'opened' });
  }

  private urlRequest(): UrlElicitationRequest | undefined {
    const p = this.setup.params;
    if (this.setup.input.mode !== 'url' || this.setup.input.problem !== undefined || typeof p.url !== 'string') return undefined;
    let host: string;
    try {
      host = new URL(p.url).hostname;
    } catch {
      return undefined;
    }
    return {
      mode: 'url',
      url: p.url,
      domain: host,
      punycode: host.split('.').some((label) => label.startsWith('xn--')),
      elicitationId: typeof p.elicitationId === 'string' ? p.elicitationId : undefined,
      message: p.message as string,
      server: this.service.deps.serverInfo(),
      origin: this.setup.origin,
    };
  }

  private statusOf(snapshot: ElicitationSnapshot): ElicitationStatus {
    const c = snapshot.context;
    return {
      key: this.key,
      mode: c.mode,
      origin: this.setup.origin,
      state: leafState(snapshot.value),
      done: snapshot.status === 'done',
      elicitationId: this.elicitationId,
      message: typeof this.setup.params.message === 'string' ? this.setup.params.message : undefined,
      attempts: c.attempts,
      errors: c.errors,
      failure: c.failure ?? c.problem,
    };
  }

  private lastState: string | undefined;
  private ended = false;

  private onSnapshot(snapshot: ElicitationSnapshot): void {
    if (this.ended) return;
    const status = this.statusOf(snapshot);
    const mark = `${status.state}:${snapshot.context.attempts}`;
    if (mark !== this.lastState || status.done) {
      this.lastState = mark;
      this.status$.next(status);
      this.service.report(status);
    }
    if (snapshot.status === 'done') {
      this.ended = true;
      this.controller.abort(new Error(`The elicitation ended (${status.state})`));
      this.status$.complete();
      this.service.forget(this);
      this.finish(status.state);
    }
  }
}

function formEvent(answer: unknown): ClientElicitationEvent {
  const a = answer as { action?: unknown; content?: unknown } | undefined;
  switch (a?.action) {
    case 'accept':
      return { type: 'SUBMIT', content: a.content ?? {} };
    case 'decline':
      return { type: 'DECLINE' };
    case 'cancel':
      return { type: 'CANCEL' };
    default:
      return { type: 'FAIL', message: `The form handler returned ${JSON.stringify(answer)}; expected { action: "accept" | "decline" | "cancel" }` };
  }
}

function consentEvent(answer: unknown): ClientElicitationEvent {
  const action = typeof answer === 'string' ? answer : (answer as { action?: unknown } | undefined)?.action;
  switch (action) {
    case 'accept':
      return { type: 'ACCEPT' };
    case 'decline':
      return { type: 'DECLINE' };
    case 'cancel':
      return { type: 'CANCEL' };
    default:
      return { type: 'FAIL', message: `The URL consent handler returned ${JSON.stringify(answer)}; expected "accept", "decline" or "cancel"` };
  }
}

/** Runs the client's elicitations. */
export class ElicitationService {
  private options: ElicitationOptions | undefined;
  private nextKey = 1;
  private readonly flows = new Set<ElicitationFlow>();
  /** The server has sent a notifications/elicitation/complete: it is worth waiting for them. */
  private serverSendsCompletions = false;
  private readonly statuses = new Subject<ElicitationStatus>();
  /** Every elicitation's state changes. */
  readonly statuses$: Observable<ElicitationStatus> = this.statuses.asObservable();

  constructor(readonly deps: ElicitationDeps) {}

  /**
   * The `elicitation` capability these options declare: `form` (with `applyDefaults` when set)
   * and `url`, for the handlers given. Throws when neither is.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#capabilities
   */
  static capabilityFor(options: ElicitationOptions): Record<string, unknown> {
    if (!options.form && !options.url) throw new TypeError('onElicitation needs a form handler, a url handler, or both (a client must support at least one mode)');
    const capability: Record<string, unknown> = {};
    if (options.form) capability.form = options.applyDefaults ? { applyDefaults: true } : {};
    if (options.url) capability.url = {};
    return capability;
  }

  /** Set the handlers (after declaring {@link ElicitationService.capabilityFor}). */
  configure(options: ElicitationOptions): void {
    this.options = options;
  }

  /** Elicitations in progress. */
  get active(): number {
    return this.flows.size;
  }

  /** Serve an `elicitation/create`. */
  handleRequest(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<ElicitResult> {
    const opts = this.options ?? {};
    const p = params ?? {};
    const mode = p.mode === undefined ? 'form' : String(p.mode);
    const rev = this.deps.revision();
    const caps = this.deps.localCapabilities();
    const formDeclared = !!opts.form && supportsElicitationMode(caps, 'form', rev);
    const urlDeclared = !!opts.url && supportsElicitationMode(caps, 'url', rev);
    // 2026-07-28 has no elicitationId and no completion notification: the retry carries the answer.
    const completions = rev === undefined || allows(rev, 'elicitationComplete');
    let problem: string | undefined;
    if (mode === 'form' && formDeclared) problem = checkFormElicitationParams(p);
    if (mode === 'url' && urlDeclared) problem = checkUrlElicitationParams(p, completions);
    return new Promise<ElicitResult>((resolve, reject) => {
      const flow = this.start({
        origin: 'request',
        params: p,
        input: {
          mode,
          formDeclared,
          urlDeclared,
          ...(problem !== undefined && { problem }),
          ...(mode === 'form' && problem === undefined && { requestedSchema: p.requestedSchema as ElicitRequestedSchema }),
          applyDefaults: opts.applyDefaults === true,
          ...(opts.maxAttempts !== undefined && { maxAttempts: opts.maxAttempts }),
          ...(opts.completionTimeout !== undefined && { completionTimeout: opts.completionTimeout }),
          ...(!completions && { awaitsCompletion: false }),
        },
        ...(opts.form && { form: opts.form }),
        ...(opts.url && { url: opts.url }),
        ...(opts.openUrl && { openUrl: opts.openUrl }),
        signal: ctx.signal,
        respond: (outcome, context) => {
          switch (outcome) {
            case 'accept':
              resolve(context.mode === 'form' ? { action: 'accept', content: context.content as ElicitResult['content'] } : { action: 'accept' });
              return;
            case 'decline':
            case 'cancel':
              resolve({ action: outcome });
              return;
            case 'reject':
              reject(new McpError(ErrorCode.InvalidParams, `Invalid elicitation request: ${context.problem}`));
              return;
            case 'fail':
              reject(new McpError(ErrorCode.InternalError, context.failure ?? 'The elicitation failed'));
              return;
          }
        },
      });
      // Aborted (cancelled by the server, or the session closed): the response is suppressed anyway.
      void flow.done.then((state) => {
        if (state === 'aborted') reject(new Error('The elicitation was aborted'));
      });
    });
  }

  /**
   * Run the URL elicitations a -32042 error requires, one after the other: consent, open, wait for
   * completion (or the user's manual retry). Resolves when all are done; rejects with
   * {@link ElicitationNotCompletedError} when one is declined, cancelled or abandoned.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-mode-with-elicitation-required-error-flow
   */
  async runRequired(elicitations: ElicitRequestURLParams[], handler: UrlElicitationHandler, signal?: AbortSignal): Promise<void> {
    const opts = this.options ?? {};
    // Servers MAY send notifications/elicitation/complete, and nothing in the protocol promises
    // one. Until this server has sent one, do not wait the long default for it: retry the call
    // once the (short) completion timeout passes after consent. The user can retry() sooner.
    const autoRetry = !this.serverSendsCompletions;
    const completionTimeout = opts.completionTimeout ?? (autoRetry ? DEFAULT_REQUIRED_ELICITATION_RETRY_MS : undefined);
    for (const e of elicitations) {
      const params = e as unknown as JsonObject;
      const problem = checkUrlElicitationParams(params);
      const flow = this.start({
        origin: 'error',
        params,
        input: {
          mode: 'url',
          formDeclared: false,
          urlDeclared: true,
          ...(problem !== undefined && { problem }),
          ...(completionTimeout !== undefined && { completionTimeout }),
        },
        url: handler,
        ...(opts.openUrl && { openUrl: opts.openUrl }),
        ...(signal && { signal }),
      });
      const retryWhenStale = autoRetry ? flow.status$.subscribe((st) => st.state === 'stale' && flow.send({ type: 'RETRY' })) : undefined;
      const state = await flow.done.finally(() => retryWhenStale?.unsubscribe());
      if (state !== 'completed' && state !== 'retried') {
        const status = flow.status$.getValue();
        throw new ElicitationNotCompletedError(e.elicitationId, state as ElicitationNotCompletedError['outcome'], status.failure);
      }
    }
  }

  /**
   * `notifications/elicitation/complete`: completes the elicitations waiting under that id.
   * Unknown and already completed ids are ignored (false).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#completion-notifications-for-url-mode-elicitation
   */
  complete(elicitationId: unknown): boolean {
    if (typeof elicitationId !== 'string') return false;
    this.serverSendsCompletions = true;
    let any = false;
    for (const flow of [...this.flows]) {
      if (flow.elicitationId === elicitationId && flow.awaitingCompletion) {
        flow.send({ type: 'COMPLETE' });
        any = true;
      }
    }
    return any;
  }

  /** End every elicitation (the session closed). */
  abortAll(): void {
    for (const flow of [...this.flows]) flow.send({ type: 'ABORT', reason: 'The session closed' });
  }

  /** @internal */
  report(status: ElicitationStatus): void {
    this.statuses.next(status);
  }

  /** @internal */
  forget(flow: ElicitationFlow): void {
    this.flows.delete(flow);
  }

  /** Complete `statuses$` (the session ended). */
  close(): void {
    this.abortAll();
    this.statuses.complete();
  }

  private start(setup: FlowSetup): ElicitationFlow {
    const flow = new ElicitationFlow(this.nextKey++, this, setup);
    this.flows.add(flow);
    flow.start();
    return flow;
  }
}
