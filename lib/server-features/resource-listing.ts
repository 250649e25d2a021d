/**
 * `resources/list` (static resources, then what templates' `list` callbacks return) and
 * `resources/templates/list`, paginated with opaque cursors; and the registry's listing as
 * `list_changed` compares it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#listing-resources
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
 */
import type { JsonObject } from '../jsonrpc/message.js';
import { spreadMerge } from '../jsonrpc/spread-copy.js';
import type { Resource, ResourceTemplate } from '../protocol/schema/resources.js';
import type { RequestHandlerContext } from '../session/session.js';
import { revisionOf, shapeForRevision } from './resource-checks.js';
import { compareKeys, readCursor, writeCursor, type CursorKey } from './resource-cursors.js';
import type { ResourceEntry, ResourcesState, TemplateEntry } from './resource-types.js';

/** The registry's entries in registration order. */
export interface SortedEntries {
  resources: readonly ResourceEntry[];
  templates: readonly TemplateEntry[];
}

/** One page of `resources/list` after the cursor in `params`. */
export async function listResources(entries: SortedEntries, pageSize: number, params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
  const after = readCursor(params, 'r');
  const rev = revisionOf(ctx.session);
  const page: Resource[] = [];
  let last: CursorKey | undefined;
  let more = false;
  const take = (key: CursorKey, item: Resource): boolean => {
    if (after && compareKeys(key, after) <= 0) return true;
    if (page.length === pageSize) {
      more = true;
      return false;
    }
    page.push(shapeForRevision(item, rev));
    last = key;
    return true;
  };
  for (const e of entries.resources) if (!take([0, e.seq, 0], e.listed)) break;
  if (!more) {
    for (const t of entries.templates) {
      if (!t.list || (after && (after[0] > 1 || (after[0] === 1 && after[1] > t.seq)))) continue;
      const items = await t.list(ctx);
      if (!Array.isArray(items)) throw new Error(`The list callback of resource template "${t.listed.name}" must return an array`);
      const { uriTemplate: _u, name: _n, ...defaults } = t.listed;
      let i = 0;
      for (; i < items.length; i++) {
        const item = items[i]!;
        if (!item || typeof item.uri !== 'string' || typeof item.name !== 'string') {
          throw new Error(`The list callback of resource template "${t.listed.name}" returned an item without a string "uri" and "name"`);
        }
        if (!take([1, t.seq, i], spreadMerge(defaults, item) as Resource)) break;
      }
      if (more) break;
    }
  }
  const result: JsonObject = { resources: page };
  if (more && last) result.nextCursor = writeCursor('r', last);
  return result;
}

/** One page of `resources/templates/list` after the cursor in `params`. */
export function listTemplates(entries: SortedEntries, pageSize: number, params: JsonObject | undefined, ctx: RequestHandlerContext): JsonObject {
  const after = readCursor(params, 't');
  const rev = revisionOf(ctx.session);
  const page: ResourceTemplate[] = [];
  let more = false;
  let last: CursorKey | undefined;
  for (const t of entries.templates) {
    const key: CursorKey = [0, t.seq, 0];
    if (after && compareKeys(key, after) <= 0) continue;
    if (page.length === pageSize) {
      more = true;
      break;
    }
    page.push(shapeForRevision(t.listed, rev));
    last = key;
  }
  const result: JsonObject = { resourceTemplates: page };
  if (more && last) result.nextCursor = writeCursor('t', last);
  return result;
}

/**
 * What `list_changed` compares: the listed objects (by reference: an unchanged entry keeps its
 * object) and each template's `list` callback; with `sees`, only the resources (by uri) and
 * templates (by uri template) it keeps.
 */
export function listing(s: ResourcesState, sees?: (name: string) => boolean): object[] {
  const out: object[] = [];
  for (const e of Object.values(s.resources)) if (sees === undefined || sees(e.listed.uri)) out.push(e.listed);
  for (const t of Object.values(s.templates)) if (sees === undefined || sees(t.listed.uriTemplate)) out.push(t.listed, t.list ?? NO_LIST);
  return out;
}
const NO_LIST = {};

/** Whether two listings hold the same objects in the same order. */
export function sameItems(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
