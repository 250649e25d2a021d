/**
 * Logging: `logging/setLevel` and `notifications/message`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
 */
import type { NotificationParams, RequestParams } from './base.js';

/**
 * The log levels, least severe first (RFC 5424 severities in reverse). A level's index is
 * its rank: a message passes a `setLevel` threshold when its index is at least the
 * threshold's.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#log-levels
 */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/**
 * A log level.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#log-levels
 */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/**
 * Params of `logging/setLevel`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#setting-log-level
 */
export type SetLevelRequestParams = RequestParams & {
  /** Send messages at this level and more severe ones. */
  level: LoggingLevel;
};

/**
 * The client sets the minimum level of log messages it wants.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#setting-log-level
 */
export type SetLevelRequest = {
  method: 'logging/setLevel';
  params: SetLevelRequestParams;
};

/**
 * Params of `notifications/message`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#log-message-notifications
 */
export type LoggingMessageNotificationParams = NotificationParams & {
  level: LoggingLevel;
  /** Which logger spoke. */
  logger?: string;
  /** Anything JSON-serializable. */
  data: unknown;
};

/**
 * A log message, server to client.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#log-message-notifications
 */
export type LoggingMessageNotification = {
  method: 'notifications/message';
  params: LoggingMessageNotificationParams;
};
