/**
 * The HTTP headers a modern (2026-07-28) request carries besides its body: `MCP-Protocol-Version`
 * (equal to the `_meta` claim), `Mcp-Method`, `Mcp-Name` (tool or prompt name, resource URI) and
 * one `Mcp-Param-{Name}` per `x-mcp-header` argument the tool declares. Values that are not plain
 * visible ASCII go as `=?base64?…?=`.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
 */
import { argumentAt } from '../modern/param-headers.js';
import { META } from '../protocol/schema/modern.js';

/** A tool argument mirrored into a header (from the tool's `inputSchema`). */
export interface ParamHeaderSpec {
  /** The argument's name (for a nested one, its path joined with dots). */
  param: string;
  header: string;
  /** The chain of `properties` keys to the argument, when it is nested (default: `[param]`). */
  path?: readonly string[];
}

/** Looks up the `x-mcp-header` arguments of a tool by name (the client's tool index). */
export type ParamHeaderSource = (tool: string) => readonly ParamHeaderSpec[] | undefined;

const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** A header value as sent: verbatim when plain visible ASCII, else the Base64 sentinel form. */
export function encodeHeaderValue(value: string): string {
  if (PLAIN.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The version claim of a frame's `_meta`, when it is a modern message. */
export function modernClaim(frame: unknown): string | undefined {
  const params = (frame as { params?: { _meta?: Record<string, unknown> } } | null)?.params;
  const v = params?._meta?.[META.protocolVersion];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Which param `Mcp-Name` mirrors, by method (the rows of `io.modelcontextprotocol/tasks`, its
 * Streamable HTTP binding, let an intermediary route a task's requests by `taskId`).
 */
const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

/** The headers of one modern frame (empty for a frame without a version claim). */
export function modernHeaders(frame: unknown, paramHeaders?: ParamHeaderSource): [string, string][] {
  const version = modernClaim(frame);
  if (version === undefined) return [];
  const f = frame as { method?: unknown; params?: Record<string, unknown> };
  const out: [string, string][] = [['mcp-protocol-version', version]];
  if (typeof f.method !== 'string') return out;
  out.push(['mcp-method', f.method]);
  const p = f.params ?? {};
  const source = NAME_SOURCE[f.method];
  const name = source === undefined ? undefined : p[source];
  if (typeof name === 'string') out.push(['mcp-name', encodeHeaderValue(name)]);
  if (f.method === 'tools/call' && typeof p.name === 'string' && paramHeaders) {
    const args = (p.arguments ?? {}) as Record<string, unknown>;
    for (const spec of paramHeaders(p.name) ?? []) {
      const v = argumentAt(args, spec.path ?? [spec.param]);
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
      out.push([`mcp-param-${spec.header.toLowerCase()}`, encodeHeaderValue(String(v))]);
    }
  }
  return out;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Keywords whose values are data, not schemas (an `x-mcp-header` key inside them is no annotation). */
const NOT_SCHEMA = new Set(['x-mcp-header', 'enum', 'const', 'default', 'examples']);

/**
 * The `x-mcp-header` arguments of a tool's input schema, or an error text when an annotation is
 * invalid (such a tool must not be offered: the client leaves it out of its list). An annotated
 * property counts only when a chain of `properties` keys leads to it from the root; one under
 * `items`, `anyOf`, `if`, `$defs` or any other keyword makes the tool invalid.
 */
export function paramHeadersOf(inputSchema: unknown): { specs: ParamHeaderSpec[] } | { invalid: string } {
  const specs: ParamHeaderSpec[] = [];
  const seen = new Set<string>();
  let invalid: string | undefined;
  // `path` is the properties chain to `node`, or undefined when `node` is not statically reachable.
  const walk = (node: unknown, path: string[] | undefined, where: string, depth: number): void => {
    if (invalid !== undefined || node === null || typeof node !== 'object' || depth > 32) return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, undefined, `${where}/${i}`, depth + 1));
      return;
    }
    const def = node as Record<string, unknown>;
    if ('x-mcp-header' in def) {
      invalid = annotationError(def, path, where, seen);
      if (invalid !== undefined) return;
      const header = def['x-mcp-header'] as string;
      seen.add(header.toLowerCase());
      specs.push(path!.length === 1 ? { param: path![0]!, header } : { param: path!.join('.'), header, path: path! });
    }
    for (const [key, child] of Object.entries(def)) {
      if (key === 'properties' && path !== undefined && child !== null && typeof child === 'object' && !Array.isArray(child)) {
        for (const [name, prop] of Object.entries(child as Record<string, unknown>)) walk(prop, [...path, name], `${where}/properties/${name}`, depth + 1);
      } else if (!NOT_SCHEMA.has(key)) {
        walk(child, undefined, `${where}/${key}`, depth + 1);
      }
    }
  };
  walk(inputSchema, [], '#', 0);
  return invalid === undefined ? { specs } : { invalid };
}

/** Why an `x-mcp-header` annotation at `where` is invalid, or undefined when it is valid. */
function annotationError(def: Record<string, unknown>, path: string[] | undefined, where: string, seen: Set<string>): string | undefined {
  const header = def['x-mcp-header'];
  const type = def.type;
  if (path === undefined || path.length === 0) return `x-mcp-header at ${where} is not on a property reachable through "properties" alone`;
  const param = path.join('.');
  if (typeof header !== 'string' || header === '' || !TOKEN.test(header)) return `argument "${param}": x-mcp-header ${JSON.stringify(header)} is not a header token`;
  if (seen.has(header.toLowerCase())) return `argument "${param}": x-mcp-header "${header}" is used twice`;
  if (type !== 'string' && type !== 'integer' && type !== 'boolean') return `argument "${param}": x-mcp-header needs a string, integer or boolean property`;
  return undefined;
}
