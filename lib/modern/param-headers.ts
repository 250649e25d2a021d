/**
 * `x-mcp-header`: a tool parameter that the client mirrors into an `Mcp-Param-{Name}` HTTP header
 * (so that gateways can route on it without parsing bodies). The server reads the annotations of
 * a tool's input schema once and checks each call's headers against its arguments.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
 */

export interface ParamHeader {
  /** The argument's path from the arguments object (one name per `properties` level). */
  path: string[];
  /** The argument's name (the path joined with dots), for messages. */
  param: string;
  /** The header name after `Mcp-Param-`. */
  header: string;
  /** The property's JSON type: string, integer or boolean. */
  type: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The valid `x-mcp-header` annotations of an input schema, on properties reachable from the root
 * through `properties` alone (not through `items`, composition, conditionals or `$ref`). Invalid
 * ones are ignored here; clients reject such tools.
 */
export function scanParamHeaders(schema: unknown): ParamHeader[] {
  const out: ParamHeader[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, path: string[], depth: number): void => {
    if (depth > 16 || node === null || typeof node !== 'object') return;
    const props = (node as { properties?: unknown }).properties;
    if (props === null || typeof props !== 'object') return;
    for (const [name, def] of Object.entries(props as Record<string, unknown>)) {
      if (def === null || typeof def !== 'object') continue;
      const here = [...path, name];
      const header = (def as Record<string, unknown>)['x-mcp-header'];
      const type = (def as Record<string, unknown>).type;
      if (typeof header === 'string' && TOKEN.test(header) && !seen.has(header.toLowerCase()) && (type === 'string' || type === 'integer' || type === 'boolean')) {
        seen.add(header.toLowerCase());
        out.push({ path: here, param: here.join('.'), header, type });
      }
      walk(def, here, depth + 1);
    }
  };
  walk(schema, [], 0);
  return out;
}

/** The value at `path` in the arguments (undefined when a step is missing). */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
