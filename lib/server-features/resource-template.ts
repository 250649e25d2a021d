/**
 * `ResourceTemplate`, as the official SDK's McpServer takes it: a URI template with its `list`
 * and `complete` callbacks, given to `registerResource(name, template, metadata, read)`.
 * `registerResourceTemplate(name, uriTemplate, { list, complete, ...metadata }, read)` is the
 * same thing without the wrapper.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
 */
import type { RequestHandlerContext } from '../session/session.js';
import type { CompleteVariableCallback, ListedResource, ListTemplateCallback } from './resources.js';

/** The callbacks of a {@link ResourceTemplate}. */
export interface ResourceTemplateCallbacks {
  /**
   * The concrete resources of the template, for `resources/list` (`undefined`: not listed).
   * Return them as an array or, as with the official SDK, as `{ resources }`.
   */
  list: ((ctx: RequestHandlerContext) => ListedResource[] | { resources: ListedResource[] } | Promise<ListedResource[] | { resources: ListedResource[] }>) | undefined;
  /** Completion of template variables, by variable name. */
  complete?: { [variable: string]: CompleteVariableCallback };
}

/** A URI template (RFC 6570) and its callbacks. */
export class ResourceTemplate {
  constructor(
    readonly uriTemplate: string,
    readonly callbacks: ResourceTemplateCallbacks,
  ) {}

  /** The `list` callback as `registerResourceTemplate` takes it (an array). */
  get list(): ListTemplateCallback | undefined {
    const list = this.callbacks.list;
    if (list === undefined) return undefined;
    return async (ctx) => {
      const listed = await list(ctx);
      return Array.isArray(listed) ? listed : listed.resources;
    };
  }
}
