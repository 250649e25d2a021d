/**
 * Resources: list, templates, read, subscribe/unsubscribe, updated and list_changed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources
 */
import type {
  Annotations,
  BaseMetadata,
  Icons,
  Meta,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  RequestParams,
  Result,
} from './base.js';

/**
 * A resource the server can read.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource
 */
export type Resource = BaseMetadata &
  Icons & {
    uri: string;
    description?: string;
    mimeType?: string;
    annotations?: Annotations;
    /** Raw size in bytes (before base64), when known. */
    size?: number;
    /** @since 2025-06-18 */
    _meta?: Meta;
  };

/**
 * Common part of a resource's contents.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-contents
 */
export type ResourceContents = {
  uri: string;
  mimeType?: string;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * Contents that are text.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-contents
 */
export type TextResourceContents = ResourceContents & {
  text: string;
};

/**
 * Contents that are binary, base64-encoded.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-contents
 */
export type BlobResourceContents = ResourceContents & {
  blob: string;
};

/**
 * A family of resources named by an RFC 6570 URI template.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
 */
export type ResourceTemplate = BaseMetadata &
  Icons & {
    uriTemplate: string;
    description?: string;
    /** Only when every matching resource has this type. */
    mimeType?: string;
    annotations?: Annotations;
    /** @since 2025-06-18 */
    _meta?: Meta;
  };

/**
 * Lists resources, a page at a time.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#listing-resources
 */
export type ListResourcesRequest = {
  method: 'resources/list';
  params?: PaginatedRequestParams;
};

/**
 * Answer to `resources/list`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#listing-resources
 */
export type ListResourcesResult = PaginatedResult & {
  resources: Resource[];
};

/**
 * Lists resource templates, a page at a time.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
 */
export type ListResourceTemplatesRequest = {
  method: 'resources/templates/list';
  params?: PaginatedRequestParams;
};

/**
 * Answer to `resources/templates/list`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
 */
export type ListResourceTemplatesResult = PaginatedResult & {
  resourceTemplates: ResourceTemplate[];
};

/**
 * Params naming one resource by URI (read, subscribe, unsubscribe).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources
 */
export type ResourceRequestParams = RequestParams & {
  uri: string;
};

/**
 * Params of `resources/read`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources
 */
export type ReadResourceRequestParams = ResourceRequestParams;

/**
 * Reads one resource.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources
 */
export type ReadResourceRequest = {
  method: 'resources/read';
  params: ReadResourceRequestParams;
};

/**
 * Answer to `resources/read`: one resource may yield several contents (sub-resources).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources
 */
export type ReadResourceResult = Result & {
  contents: (TextResourceContents | BlobResourceContents)[];
};

/**
 * Params of `resources/subscribe`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 */
export type SubscribeRequestParams = ResourceRequestParams;

/**
 * Asks for `notifications/resources/updated` when a resource changes.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 */
export type SubscribeRequest = {
  method: 'resources/subscribe';
  params: SubscribeRequestParams;
};

/**
 * Params of `resources/unsubscribe`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 */
export type UnsubscribeRequestParams = ResourceRequestParams;

/**
 * Ends a subscription.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 */
export type UnsubscribeRequest = {
  method: 'resources/unsubscribe';
  params: UnsubscribeRequestParams;
};

/**
 * Params of `notifications/resources/updated`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 */
export type ResourceUpdatedNotificationParams = NotificationParams & {
  /** May be a sub-resource of the subscribed URI. */
  uri: string;
};

/**
 * A subscribed resource changed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 */
export type ResourceUpdatedNotification = {
  method: 'notifications/resources/updated';
  params: ResourceUpdatedNotificationParams;
};

/**
 * The server's resource list changed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#list-changed-notification
 */
export type ResourceListChangedNotification = {
  method: 'notifications/resources/list_changed';
  params?: NotificationParams;
};
