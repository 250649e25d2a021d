/**
 * Logging: `logging/setLevel` per session and `notifications/message` filtered by each
 * session's level. The levels are immutable state (immer), one entry per session that set one,
 * exposed as `levels$`. Log messages only ever travel as notifications: nothing here writes to
 * stdout, which a stdio transport owns.
 *
 * Every field of a message is checked before it leaves (level, logger name, data as bounded
 * JSON), secrets are redacted and each redaction reported on `redactions$` (paths only), an
 * access rule decides which sessions receive logs at all, and a failure to apply a level is
 * answered -32603.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
 */
import { produce } from 'immer';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { spreadCopy, spreadMerge } from '../jsonrpc/spread-copy.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../protocol/schema/logging.js';
import type { Server } from '../server.js';
import { legacySession, type ServerCaller } from '../session/session.js';
import type { RateLimiter } from './rate-limit.js';
import { redactSecrets, redactWithPaths } from './redaction.js';
import './registry.js'; // enables immer's Map support

export { LOGGING_LEVELS, type LoggingLevel };
export { REDACTED, SECRET_KEY, isSecretKey, redactSecrets, redactWithPaths, type Redacted } from './redaction.js';

/** A logger: one method per level, each sending `notifications/message` where the level passes. */
export interface Logger {
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  debug(data: unknown, logger?: string): void;
  info(data: unknown, logger?: string): void;
  notice(data: unknown, logger?: string): void;
  warning(data: unknown, logger?: string): void;
  error(data: unknown, logger?: string): void;
  critical(data: unknown, logger?: string): void;
  alert(data: unknown, logger?: string): void;
  emergency(data: unknown, logger?: string): void;
  /**
   * The same logger named `name` below this one's name (`db` under `billing` is `billing.db`),
   * so one component logs under one name wherever it runs. Throws
   * {@link InvalidLogMessageError} for a name {@link loggerNameProblem} refuses.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#implementation-considerations
   */
  child(name: string): Logger;
  /**
   * The same logger, adding `context` (request id, tool, tenant…) to the data of every message:
   * object data is merged over it; other data goes under `message` (an Error under `error`,
   * anything else under `value`).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#implementation-considerations
   */
  withContext(context: Record<string, unknown>): Logger;
}

/**
 * A log message's data or logger name cannot be sent: it says which field and why. Thrown to
 * the code that logs (a programming error), never sent to the client.
 */
export class InvalidLogMessageError extends TypeError {
  override readonly name = 'InvalidLogMessageError';
  constructor(
    readonly field: 'level' | 'logger' | 'context',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Applying a level requested by `logging/setLevel` failed on the server's side (its
 * `onLogLevel` hook threw): answered -32603, the session's level unchanged. What went wrong
 * stays on the server as `cause`; the client only hears that the level was not applied.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#error-handling
 */
export class LoggingConfigurationError extends McpError {
  override readonly name = 'LoggingConfigurationError';
  constructor(
    readonly level: LoggingLevel,
    readonly unchanged: LoggingLevel,
    override readonly cause?: unknown,
  ) {
    super(
      ErrorCode.InternalError,
      `Logging configuration error: the server could not apply log level "${level}"; the level is unchanged ("${unchanged}"). Try again later, or report it to the server's operator.`,
      { level, current: unchanged },
    );
  }
}

/**
 * Applying the log level a 2026-07-28 request carries (`io.modelcontextprotocol/logLevel`) failed
 * on the server's side (its `onLogLevel` hook threw): the request is refused -32603 and its
 * handler never runs. What went wrong stays on the server as `cause`.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging#error-handling
 */
export class RequestLogLevelError extends McpError {
  override readonly name = 'RequestLogLevelError';
  constructor(
    readonly level: LoggingLevel,
    override readonly cause?: unknown,
  ) {
    super(
      ErrorCode.InternalError,
      `Logging configuration error: the server could not apply log level "${level}", so it did not serve this request. Send it again with another level or without "io.modelcontextprotocol/logLevel", or report it to the server's operator.`,
      { level },
    );
  }
}

/** The longest logger name sent. */
export const MAX_LOGGER_NAME = 128;

// Control characters (C0, DEL, C1) and line/paragraph separators: a name is one printable line.
// eslint-disable-next-line no-control-regex
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * What is wrong with a logger name, or undefined: it must be a non-empty string of at most
 * {@link MAX_LOGGER_NAME} characters on one printable line (no control characters, which a
 * client showing logs could be fooled by).
 */
export function loggerNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `a logger name must be a string (got ${name === null ? 'null' : typeof name})`;
  if (name === '') return 'a logger name must not be empty';
  if (name.length > MAX_LOGGER_NAME) return `a logger name must be at most ${MAX_LOGGER_NAME} characters (got ${name.length})`;
  if (NAME_FORBIDDEN.test(name)) return `the logger name ${JSON.stringify(name.slice(0, 40))} has a control character or line break`;
  return undefined;
}

function checkLoggerName(name: unknown): string {
  const problem = loggerNameProblem(name);
  if (problem) throw new InvalidLogMessageError('logger', problem);
  return name as string;
}

const RANK: Record<string, number> = Object.fromEntries(LOGGING_LEVELS.map((l, i) => [l, i]));

/** Whether `s` is one of the eight levels. */
export function isLoggingLevel(s: unknown): s is LoggingLevel {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(RANK, s);
}

/** `data` with `context` added (see {@link Logger.withContext}). */
export function withLogContext(context: Readonly<Record<string, unknown>>, data: unknown): Record<string, unknown> {
  // (spreadCopy / spreadMerge, not spreads: a spread copy grows slowly on Node 20, once per message.)
  if (data !== null && typeof data === 'object' && !Array.isArray(data) && !(data instanceof Error)) return spreadMerge(context, data as Record<string, unknown>);
  const out = spreadCopy(context) as Record<string, unknown>;
  if (data instanceof Error) out.error = toLogData(data);
  else if (typeof data === 'string') out.message = data;
  else out.value = data;
  return out;
}

/**
 * Make a {@link Logger} from one `log(level, data, logger)` function.
 * @param name the logger name messages carry unless one is given per call
 * @param context added to every message's data (see {@link Logger.withContext})
 */
export function makeLogger(
  log: (level: LoggingLevel, data: unknown, logger: string | undefined) => void,
  name?: string,
  context?: Readonly<Record<string, unknown>>,
): Logger {
  if (name !== undefined) checkLoggerName(name);
  const emit = (level: LoggingLevel, data: unknown, logger: string | undefined) =>
    log(level, context === undefined ? data : withLogContext(context, data), logger ?? name);
  const at = (level: LoggingLevel) => (data: unknown, logger?: string) => emit(level, data, logger);
  return {
    log: (level, data, logger) => emit(level, data, logger),
    debug: at('debug'),
    info: at('info'),
    notice: at('notice'),
    warning: at('warning'),
    error: at('error'),
    critical: at('critical'),
    alert: at('alert'),
    emergency: at('emergency'),
    child: (child) => makeLogger(log, name === undefined ? checkLoggerName(child) : `${name}.${checkLoggerName(child)}`, context),
    withContext: (more) => {
      if (more === null || typeof more !== 'object' || Array.isArray(more)) throw new InvalidLogMessageError('context', 'a log context must be an object of fields');
      return makeLogger(log, name, { ...context, ...more });
    },
  };
}

/**
 * Log data as JSON: an Error becomes `{ name, message }` (never its stack: internal details do
 * not belong in logs a client shows), a bigint its decimal string, values JSON cannot hold
 * (functions, cycles) strings.
 */
export function toLogData(data: unknown): unknown {
  if (data instanceof Error) return { name: data.name, message: data.message };
  if (data === undefined) return null;
  try {
    const s = JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return s === undefined ? String(data) : (JSON.parse(s) as unknown);
  } catch {
    return String(data);
  }
}

/** The default bound on a message's data, as JSON characters (see {@link LoggingOptions.maxDataChars}). */
export const DEFAULT_MAX_LOG_DATA_CHARS = 64 * 1024;

/**
 * `data` (JSON) within `max` characters of JSON: larger data is replaced by a note of its size
 * and the start of its JSON text, so one message cannot exceed what a client accepts.
 */
export function boundLogData(data: unknown, max: number): unknown {
  if (max === Infinity || (typeof data !== 'string' && (data === null || typeof data !== 'object'))) return data;
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  if (text.length <= max) return data;
  return { truncated: true, chars: text.length, start: text.slice(0, Math.min(1024, max)) };
}

/**
 * A redaction that happened in a log message: where, never what. Watch `redactions$` to learn
 * that code somewhere logs secrets (and fix it), without the secrets reaching the watcher.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
 */
export interface LogRedaction {
  level: LoggingLevel;
  logger?: string;
  /**
   * Paths of the values the built-in redaction hid (`request.headers.Authorization`); empty
   * when a custom `redact` function changed the data (it cannot say where).
   */
  paths: string[];
  /** The data was changed by a custom `redact` function. */
  custom: boolean;
}

/** How a {@link LoggingFeature} behaves. */
export interface LoggingOptions {
  /** The level of a session whose client has not sent `logging/setLevel`. Default `debug`. */
  defaultLevel?: LoggingLevel;
  /** Caps messages per session; those over the limit are dropped. */
  limiter?: RateLimiter;
  /**
   * Applied to every message's data (already made JSON) before it is sent. Default
   * {@link redactSecrets}; `false` sends data as is.
   */
  redact?: ((data: unknown) => unknown) | false;
  /**
   * Which sessions may receive log messages at all (all by default). Log messages describe the
   * server's inner workings: on a server shared by several users, let only those entitled to
   * them (an operator, say, by `session.authInfo`) receive them. A request's own logger only
   * ever reaches the session of that request. For a 2026-07-28 request it is asked with the
   * request's caller (`ServerCaller`: no session exists in that revision).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
   */
  canReceive?: (session: ServerCaller) => boolean;
  /**
   * Applies a level a client asked for to the server's own logging (a logging library, a
   * remote configuration). When it throws, `logging/setLevel` is answered -32603
   * ({@link LoggingConfigurationError}) and the session's level is unchanged. A 2026-07-28
   * request asks per request (`io.modelcontextprotocol/logLevel` in its `_meta`): the hook runs
   * before that request's handler, with the request's caller (`ServerCaller`), and when it throws the request
   * is refused -32603 ({@link RequestLogLevelError}) without running.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#error-handling
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging#error-handling
   */
  onSetLevel?: (level: LoggingLevel, session: ServerCaller) => void | Promise<void>;
  /** The largest data sent, as JSON characters (larger data is cut, see {@link boundLogData}). Default 64 KiB. */
  maxDataChars?: number;
}

/** The per-session levels. */
export interface LoggingState {
  readonly levels: ReadonlyMap<ServerCaller, LoggingLevel>;
}

export class LoggingFeature {
  private readonly subject = new BehaviorSubject<LoggingState>({ levels: new Map() });
  /** Each session's level as set by `logging/setLevel` (sessions that never set one are absent). */
  readonly levels$: Observable<LoggingState>;

  /** The level of a session whose client has not sent `logging/setLevel`. */
  readonly defaultLevel: LoggingLevel;
  private readonly limiter: RateLimiter | undefined;
  private readonly redact: ((data: unknown) => unknown) | undefined;
  private readonly customRedact: boolean;
  private readonly canReceive: ((session: ServerCaller) => boolean) | undefined;
  private readonly maxDataChars: number;
  private readonly redactionSubject = new Subject<LogRedaction>();
  /** Every redaction in a message sent, with the paths hidden (never their values). */
  readonly redactions$: Observable<LogRedaction> = this.redactionSubject.asObservable();

  constructor(
    private readonly server: Server,
    options: LoggingOptions = {},
  ) {
    const defaultLevel = options.defaultLevel ?? 'debug';
    this.defaultLevel = defaultLevel;
    this.limiter = options.limiter;
    this.redact = options.redact === false ? undefined : (options.redact ?? redactSecrets);
    this.customRedact = typeof options.redact === 'function';
    this.canReceive = options.canReceive;
    this.maxDataChars = options.maxDataChars ?? DEFAULT_MAX_LOG_DATA_CHARS;
    if (!(this.maxDataChars >= 1)) throw new TypeError(`maxDataChars must be 1 or more; got ${options.maxDataChars}`);
    if (!isLoggingLevel(defaultLevel)) throw new TypeError(`Unknown log level "${String(defaultLevel)}"; expected one of ${LOGGING_LEVELS.join(', ')}`);
    this.levels$ = this.subject.asObservable();
    const onSetLevel = options.onSetLevel;
    server.onRequest('logging/setLevel', (params, ctx) => {
      const level = params?.level;
      if (!isLoggingLevel(level)) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid log level ${JSON.stringify(level)}: expected one of ${LOGGING_LEVELS.join(', ')}`,
          { level: level ?? null, levels: [...LOGGING_LEVELS] },
        );
      }
      // A session shared by several processes keeps its level in its store: answered once it is there.
      // A legacy request (2026-07-28 removed logging/setLevel: a request carries its level).
      const session = legacySession(ctx.session, 'logging/setLevel');
      const shared = server.sharedSessions?.covers(session) ? server.sharedSessions : undefined;
      if (!onSetLevel) {
        this.setLevel(session, level);
        return shared ? shared.setLogLevel(session, level).then(() => ({})) : {};
      }
      const failed = (e: unknown): never => {
        if (e instanceof McpError) throw e;
        throw new LoggingConfigurationError(level, this.levelOf(session), e);
      };
      const applied = (): JsonObject | Promise<JsonObject> => {
        this.setLevel(session, level);
        return shared ? shared.setLogLevel(session, level).then(() => ({})) : {};
      };
      try {
        const r = onSetLevel(level, session);
        return r instanceof Promise ? r.then(applied, failed) : applied();
      } catch (e) {
        return failed(e);
      }
    });
    if (onSetLevel) {
      server.core.applyLogLevelWith(async (level, session) => {
        try {
          await onSetLevel(level, session);
        } catch (e) {
          throw e instanceof McpError ? e : new RequestLogLevelError(level, e);
        }
      });
    }
    server.sessions$.subscribe((session) => {
      // A shared session's copies elsewhere need the access rule's verdict for server-wide logs.
      const canReceive = this.canReceive;
      if (canReceive !== undefined) {
        session.whenOperating().then(
          () => {
            if (server.sharedSessions?.covers(session)) server.sharedSessions.setLogAccess(session, canReceive(session) === true);
          },
          () => {},
        );
      }
    });
  }

  /** The level messages must reach to be sent to `session`. */
  levelOf(session: ServerCaller): LoggingLevel {
    const shared = this.server.sharedSessions;
    if (shared?.covers(session)) return shared.logLevelOf(session) ?? this.defaultLevel;
    return this.subject.value.levels.get(session) ?? this.defaultLevel;
  }

  /** Set `session`'s level (what `logging/setLevel` does). */
  setLevel(session: ServerCaller, level: LoggingLevel): void {
    const levels = this.subject.value.levels;
    if (levels.get(session) === level) return;
    const first = !levels.has(session);
    this.subject.next(
      produce(this.subject.value, (d) => {
        (d.levels as Map<ServerCaller, LoggingLevel>).set(session, level);
      }),
    );
    // Forgotten when the session ends (at once if it has): a session that never sets a level
    // holds no watcher here (a state$ subscription per session was ~1.2 KB of an idle one).
    if (first) session.onEnd(() => this.forget(session));
  }

  /** Whether a message at `level` would be sent to `session` now. */
  wouldSend(session: ServerCaller, level: LoggingLevel): boolean {
    const phase = session.currentPhase;
    if (phase !== 'operating' && phase !== 'awaitingInitialized') return false;
    if (!hasCapability(session.localCapabilities, ['logging'])) return false;
    if (RANK[level]! < RANK[this.levelOf(session)]!) return false;
    return this.canReceive === undefined || this.canReceive(session) === true;
  }

  /**
   * Send a log message to `session` if its level lets it through; with `related`, the
   * notification is tied to that request (HTTP transports send it on the request's stream).
   * Returns whether it was sent. Throws {@link InvalidLogMessageError} for an unknown level or
   * a logger name {@link loggerNameProblem} refuses.
   */
  send(session: ServerCaller, level: LoggingLevel, data: unknown, logger?: string, related?: RequestId, meta?: JsonObject): boolean {
    if (!isLoggingLevel(level)) throw new InvalidLogMessageError('level', `Unknown log level "${String(level)}"; expected one of ${LOGGING_LEVELS.join(', ')}`);
    if (logger !== undefined) checkLoggerName(logger);
    if (!this.wouldSend(session, level)) return false;
    if (this.limiter && !this.limiter.take(session)) return false;
    const params: JsonObject = { level, data: this.prepare(level, data, logger) as JsonObject[string] };
    if (logger !== undefined) params.logger = logger;
    if (meta !== undefined) params._meta = meta;
    try {
      if (related === undefined) session.notify('notifications/message', params);
      else session.notifyRelated('notifications/message', params, related);
      return true;
    } catch {
      // The session closed meanwhile.
      return false;
    }
  }

  /** Data as it is sent: JSON, redacted (the redaction reported), bounded. */
  private prepare(level: LoggingLevel, data: unknown, logger: string | undefined): unknown {
    const json = toLogData(data);
    let out = json;
    if (this.redact) {
      if (!this.redactionSubject.observed) out = this.redact(json);
      else if (!this.customRedact) {
        const r = redactWithPaths(json);
        out = r.data;
        if (r.paths.length > 0) this.report(level, logger, r.paths, false);
      } else {
        out = this.redact(json);
        if (JSON.stringify(out) !== JSON.stringify(json)) this.report(level, logger, [], true);
      }
    }
    return boundLogData(out, this.maxDataChars);
  }

  private report(level: LoggingLevel, logger: string | undefined, paths: string[], custom: boolean): void {
    const r: LogRedaction = { level, paths, custom };
    if (logger !== undefined) r.logger = logger;
    this.redactionSubject.next(r);
  }

  /** Send to every session whose level lets it through. */
  broadcast(level: LoggingLevel, data: unknown, logger?: string): void {
    if (!isLoggingLevel(level)) throw new InvalidLogMessageError('level', `Unknown log level "${String(level)}"; expected one of ${LOGGING_LEVELS.join(', ')}`);
    if (logger !== undefined) checkLoggerName(logger);
    const shared = this.server.sharedSessions;
    for (const session of this.server.sessions) if (!shared?.covers(session)) this.send(session, level, data, logger);
    if (shared !== undefined) {
      // Sessions shared by several processes: written once into their store (per-session rate limits are this process's, not applied).
      const params: JsonObject = { level, data: this.prepare(level, data, logger) as JsonObject[string] };
      if (logger !== undefined) params.logger = logger;
      shared.log(level, params, { requireAccess: this.canReceive !== undefined, defaultLevel: this.defaultLevel });
    }
  }

  /** A logger for every session (see {@link broadcast}), named `name`. */
  logger(name?: string): Logger {
    return makeLogger((level, data, logger) => this.broadcast(level, data, logger), name);
  }

  /** A logger for one request of `session`: it reaches that session only. */
  loggerFor(session: ServerCaller, related?: RequestId, meta?: JsonObject): Logger {
    return makeLogger((level, data, logger) => this.send(session, level, data, logger, related, meta));
  }

  private forget(session: ServerCaller): void {
    if (!this.subject.value.levels.has(session)) return;
    this.subject.next(
      produce(this.subject.value, (d) => {
        (d.levels as Map<ServerCaller, LoggingLevel>).delete(session);
      }),
    );
  }
}
