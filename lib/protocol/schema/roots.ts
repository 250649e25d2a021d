/**
 * Roots: `roots/list` and `notifications/roots/list_changed`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots
 */
import type { Meta, NotificationParams, RequestParams, Result } from './base.js';

/**
 * A directory or file the server may work within. `uri` is a `file://` URI for now.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#root
 */
export type Root = {
  uri: string;
  name?: string;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * Server asks the client for its roots.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#listing-roots
 */
export type ListRootsRequest = {
  method: 'roots/list';
  params?: RequestParams;
};

/**
 * Answer to `roots/list`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#listing-roots
 */
export type ListRootsResult = Result & {
  roots: Root[];
};

/**
 * The client's roots changed; the server may ask again.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#root-list-changes
 */
export type RootsListChangedNotification = {
  method: 'notifications/roots/list_changed';
  params?: NotificationParams;
};
