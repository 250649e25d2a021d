/**
 * `x-mcp-header`: a tool parameter that the client mirrors into an `Mcp-Param-{Name}` HTTP header
 * (so that gateways can route on it without parsing bodies). The server reads the annotations of
 * a tool's input schema once and checks each call's headers against its arguments.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
 */

export interface ParamHeader {
  /** The argument (a top-level property of the input schema). */
  param: string;
  /** The header name after `Mcp-Param-`. */
  header: string;
  /** The property's JSON type: string, integer or boolean. */
  type: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The valid `x-mcp-header` annotations of an input schema (invalid ones are ignored here; clients reject such tools). */
export function scanParamHeaders(schema: unknown): ParamHeader[] {
  const out: ParamHeader[] = [];
  if (schema === null || typeof schema !== 'object') return out;
  const props = (schema as { properties?: unknown }).properties;
  if (props === null || typeof props !== 'object') return out;
  const seen = new Set<string>();
  for (const [param, def] of Object.entries(props as Record<string, unknown>)) {
    if (def === null || typeof def !== 'object') continue;
    const header = (def as Record<string, unknown>)['x-mcp-header'];
    const type = (def as Record<string, unknown>).type;
    if (typeof header !== 'string' || !TOKEN.test(header) || seen.has(header.toLowerCase())) continue;
    if (type !== 'string' && type !== 'integer' && type !== 'boolean') continue;
    seen.add(header.toLowerCase());
    out.push({ param, header, type });
  }
  return out;
}
