/**
 * Logging: `logging/setLevel` per session and `notifications/message` filtered by each
 * session's level. The levels are immutable state (immer), one entry per session that set one,
 * exposed as `levels$`. Log messages only ever travel as notifications: nothing here writes to
 * stdout, which a stdio transport owns.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
 */
import { produce } from 'immer';
import { BehaviorSubject, type Observable } from 'rxjs';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../protocol/schema/logging.js';
import type { Server } from '../server.js';
import type { Session } from '../session/session.js';
import type { RateLimiter } from './rate-limit.js';
import './registry.js'; // enables immer's Map support

export { LOGGING_LEVELS, type LoggingLevel };

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
  /** The same logger, with `name` as the default logger name. */
  child(name: string): Logger;
}

const RANK: Record<string, number> = Object.fromEntries(LOGGING_LEVELS.map((l, i) => [l, i]));

/** Whether `s` is one of the eight levels. */
export function isLoggingLevel(s: unknown): s is LoggingLevel {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(RANK, s);
}

/** Make a {@link Logger} from one `log(level, data, logger)` function. */
export function makeLogger(log: (level: LoggingLevel, data: unknown, logger: string | undefined) => void, name?: string): Logger {
  const at = (level: LoggingLevel) => (data: unknown, logger?: string) => log(level, data, logger ?? name);
  return {
    log: (level, data, logger) => log(level, data, logger ?? name),
    debug: at('debug'),
    info: at('info'),
    notice: at('notice'),
    warning: at('warning'),
    error: at('error'),
    critical: at('critical'),
    alert: at('alert'),
    emergency: at('emergency'),
    child: (child) => makeLogger(log, child),
  };
}

/**
 * Log data as JSON: an Error becomes `{ name, message }` (never its stack: internal details do
 * not belong in logs a client shows), values JSON cannot hold become strings.
 */
export function toLogData(data: unknown): unknown {
  if (data instanceof Error) return { name: data.name, message: data.message };
  if (data === undefined) return null;
  try {
    const s = JSON.stringify(data);
    return s === undefined ? String(data) : (JSON.parse(s) as unknown);
  } catch {
    return String(data);
  }
}

/**
 * Keys whose values {@link redactSecrets} hides, tested against the key in lower case without
 * `-`, `_` and the like (`api_key`, `apiKey` and `X-Api-Key` all end in `apikey`); `maxTokens`
 * and `tokenCount` are not secrets.
 */
export const SECRET_KEY = /(password|passwd|passphrase|secret|token|apikey|authorization|cookie|setcookie|credentials?|privatekey|sessionid)$/;

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** What a redacted value becomes. */
export const REDACTED = '[REDACTED]';

/**
 * The default redaction of log data: the value of every key that names a secret (password,
 * token, api key, authorization, cookie, credential, private key, session id…) is replaced,
 * at any depth. Redaction by key cannot find every secret or personal detail: pass
 * `redactLog` to add your own rules.
 */
export function redactSecrets(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(redactSecrets);
  if (data === null || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = isSecretKey(k) ? REDACTED : redactSecrets(v);
  return out;
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
}

/** The per-session levels. */
export interface LoggingState {
  readonly levels: ReadonlyMap<Session, LoggingLevel>;
}

export class LoggingFeature {
  private readonly subject = new BehaviorSubject<LoggingState>({ levels: new Map() });
  /** Each session's level as set by `logging/setLevel` (sessions that never set one are absent). */
  readonly levels$: Observable<LoggingState>;

  /** The level of a session whose client has not sent `logging/setLevel`. */
  readonly defaultLevel: LoggingLevel;
  private readonly limiter: RateLimiter | undefined;
  private readonly redact: ((data: unknown) => unknown) | undefined;

  constructor(
    private readonly server: Server,
    options: LoggingOptions = {},
  ) {
    const defaultLevel = options.defaultLevel ?? 'debug';
    this.defaultLevel = defaultLevel;
    this.limiter = options.limiter;
    this.redact = options.redact === false ? undefined : (options.redact ?? redactSecrets);
    if (!isLoggingLevel(defaultLevel)) throw new TypeError(`Unknown log level "${String(defaultLevel)}"; expected one of ${LOGGING_LEVELS.join(', ')}`);
    this.levels$ = this.subject.asObservable();
    server.onRequest('logging/setLevel', (params, ctx) => {
      const level = params?.level;
      if (!isLoggingLevel(level)) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid log level ${JSON.stringify(level)}: expected one of ${LOGGING_LEVELS.join(', ')}`,
          { level: level ?? null, levels: [...LOGGING_LEVELS] },
        );
      }
      this.setLevel(ctx.session, level);
      return {};
    });
    server.sessions$.subscribe((session) => {
      session.state$.subscribe({ complete: () => this.forget(session) });
    });
  }

  /** The level messages must reach to be sent to `session`. */
  levelOf(session: Session): LoggingLevel {
    return this.subject.value.levels.get(session) ?? this.defaultLevel;
  }

  /** Set `session`'s level (what `logging/setLevel` does). */
  setLevel(session: Session, level: LoggingLevel): void {
    if (this.subject.value.levels.get(session) === level) return;
    this.subject.next(
      produce(this.subject.value, (d) => {
        (d.levels as Map<Session, LoggingLevel>).set(session, level);
      }),
    );
  }

  /** Whether a message at `level` would be sent to `session` now. */
  wouldSend(session: Session, level: LoggingLevel): boolean {
    const phase = session.currentPhase;
    if (phase !== 'operating' && phase !== 'awaitingInitialized') return false;
    if (!hasCapability(session.localCapabilities, ['logging'])) return false;
    return RANK[level]! >= RANK[this.levelOf(session)]!;
  }

  /**
   * Send a log message to `session` if its level lets it through; with `related`, the
   * notification is tied to that request (HTTP transports send it on the request's stream).
   * Returns whether it was sent.
   */
  send(session: Session, level: LoggingLevel, data: unknown, logger?: string, related?: RequestId): boolean {
    if (!isLoggingLevel(level)) throw new TypeError(`Unknown log level "${String(level)}"; expected one of ${LOGGING_LEVELS.join(', ')}`);
    if (!this.wouldSend(session, level)) return false;
    if (this.limiter && !this.limiter.take(session)) return false;
    const json = toLogData(data);
    const params: JsonObject = { level, data: this.redact ? this.redact(json) : json };
    if (logger !== undefined) params.logger = logger;
    try {
      if (related === undefined) session.notify('notifications/message', params);
      else session.notifyRelated('notifications/message', params, related);
      return true;
    } catch {
      // The session closed meanwhile.
      return false;
    }
  }

  /** Send to every session whose level lets it through. */
  broadcast(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const session of this.server.sessions) this.send(session, level, data, logger);
  }

  /** A logger for one request of `session`. */
  loggerFor(session: Session, related?: RequestId): Logger {
    return makeLogger((level, data, logger) => this.send(session, level, data, logger, related));
  }

  private forget(session: Session): void {
    if (!this.subject.value.levels.has(session)) return;
    this.subject.next(
      produce(this.subject.value, (d) => {
        (d.levels as Map<Session, LoggingLevel>).delete(session);
      }),
    );
  }
}
