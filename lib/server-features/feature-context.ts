/**
 * What a tool or prompt handler receives besides its arguments: the session's request context,
 * plus progress, a logger tied to the request, and the client calls (sampling, elicitation,
 * roots) made on the request's behalf.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
 */
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import { LATEST_REVISION, isSupportedRevision, type Revision } from '../protocol/revisions.js';
import type { RequestCaller, RequestHandlerContext, RequestOptions, ServerCaller } from '../session/session.js';
import { elicit, listRoots, sample } from './client-calls.js';
import type { Logger, LoggingFeature } from './logging.js';

/** A handler's context. */
export interface FeatureContext extends RequestHandlerContext {
  /** The negotiated revision of this session. */
  readonly revision: Revision;
  /**
   * Report progress (sent only when the request asked for it with a progress token). Values
   * must increase; `message` is left out for 2024-11-05 clients.
   */
  progress(progress: number, total?: number, message?: string): void;
  /** Log to this session (filtered by its `logging/setLevel`), tied to this request. */
  readonly log: Logger;
  /** Ask the client's model for a completion (`sampling/createMessage`). */
  sample(params: Parameters<typeof sample>[1], options?: Parameters<typeof sample>[2]): ReturnType<typeof sample>;
  /** Ask the user for input through the client (`elicitation/create`). */
  elicit(params: Parameters<typeof elicit>[1], options?: Parameters<typeof elicit>[2]): ReturnType<typeof elicit>;
  /** Ask the client for its roots (`roots/list`). */
  listRoots(options?: Parameters<typeof listRoots>[1]): ReturnType<typeof listRoots>;
}

/** The revision a caller speaks (the latest, if its session has not negotiated one yet). */
export function revisionOf(session: RequestCaller): Revision {
  const v = session.protocolVersion;
  return v !== undefined && isSupportedRevision(v) ? v : LATEST_REVISION;
}

/** The facts of a request a feature context reads through from the context it wraps. */
export type RequestFacts = Pick<RequestHandlerContext, 'session' | 'requestId' | 'method' | 'meta' | 'authInfo'>;

/**
 * The one feature context: the request's facts read through (never copied) from the context it
 * wraps, the session's revision, and what every handler does the same way (progress, sampling,
 * elicitation, roots through its own `sendRequest`). Each way of running a handler is a small
 * adapter over it that says only what differs (signal, logger, progress, notifications,
 * requests): a plain handler (`HandlerFeatureContext`), a task (`TaskFeatureContext`), a
 * task-supporting call on a 2026-07-28 request (`ModernTaskContext`).
 */
export abstract class BaseFeatureContext implements FeatureContext {
  constructor(private readonly facts: RequestFacts) {}
  get session(): ServerCaller {
    return this.facts.session;
  }
  get requestId(): RequestId {
    return this.facts.requestId;
  }
  get method(): string {
    return this.facts.method;
  }
  get meta(): JsonObject | undefined {
    return this.facts.meta;
  }
  get authInfo(): unknown {
    return this.facts.authInfo;
  }
  get revision(): Revision {
    return revisionOf(this.facts.session);
  }
  abstract readonly signal: AbortSignal;
  abstract readonly log: Logger;
  abstract sendProgress(progress: number, total?: number, message?: string): void;
  abstract sendNotification(method: string, params?: JsonObject): void;
  abstract sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;

  progress(progress: number, total?: number, message?: string): void {
    this.sendProgress(progress, total, message);
  }
  sample(params: Parameters<typeof sample>[1], options?: Parameters<typeof sample>[2]): ReturnType<typeof sample> {
    return sample(this, params, options);
  }
  elicit(params: Parameters<typeof elicit>[1], options?: Parameters<typeof elicit>[2]): ReturnType<typeof elicit> {
    return elicit(this, params, options);
  }
  listRoots(options?: Parameters<typeof listRoots>[1]): ReturnType<typeof listRoots> {
    return listRoots(this, options);
  }
}

/** Wraps the session's context; reads through to it, so its lazy parts (`signal`) stay lazy. */
export class HandlerFeatureContext extends BaseFeatureContext {
  private logger: Logger | undefined;

  constructor(
    private readonly base: RequestHandlerContext,
    private readonly logging: LoggingFeature,
  ) {
    super(base);
  }

  get signal(): AbortSignal {
    return this.base.signal;
  }
  get trace(): { traceparent?: string; tracestate?: string; baggage?: string } | undefined {
    return this.base.trace;
  }
  /** The request being served, the same object in both eras (see {@link RequestHandlerContext.request}). */
  get request(): RequestHandlerContext['request'] {
    return this.base.request;
  }
  get log(): Logger {
    this.logger ??= this.logging.loggerFor(this.base.session, this.base.requestId);
    return this.logger;
  }

  sendProgress(progress: number, total?: number, message?: string): void {
    this.base.sendProgress(progress, total, message);
  }
  sendNotification(method: string, params?: JsonObject): void {
    this.base.sendNotification(method, params);
  }
  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    return this.base.sendRequest(method, params, options);
  }
}
