/**
 * An elicitation's text, ready to show without links: the message, each field's title and
 * description and the labels of its choices split into plain text and URLs, every URL marked
 * inert (show it as text, never as a link, never fetched). The only link is a URL-mode
 * elicitation's `url`, with its host apart so it can be highlighted; open it only after the
 * user's consent (see `elicitation.ts`). Render `segments` yourself instead of passing the raw
 * strings to a Markdown or HTML renderer, which would make links of them.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#safe-url-handling
 */
import { urlsInText } from '../protocol/text-urls.js';

/** A piece of display text: plain, or a URL to show as plain text (never a link). */
export type TextSegment = { kind: 'text'; text: string } | { kind: 'inert-url'; text: string };

/** `text` split into plain text and inert URLs. */
export function inertSegments(text: string): TextSegment[] {
  const out: TextSegment[] = [];
  let at = 0;
  for (const { url, index } of urlsInText(text)) {
    if (index > at) out.push({ kind: 'text', text: text.slice(at, index) });
    out.push({ kind: 'inert-url', text: url });
    at = index + url.length;
  }
  if (at < text.length || out.length === 0) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/** One field of a form as shown. */
export interface FieldDisplay {
  name: string;
  title?: TextSegment[];
  description?: TextSegment[];
  /** The choices of an enum or multi-select field: the value sent, and its label. */
  choices?: { value: string; label: TextSegment[] }[];
}

/** What to show for an elicitation request. */
export interface ElicitationDisplay {
  mode: 'form' | 'url';
  message: TextSegment[];
  /** Form mode: the fields, in the schema's order. */
  fields: FieldDisplay[];
  /** URL mode: the one link, with its host to highlight. Open it only with the user's consent. */
  link?: { url: string; host: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function choicesOf(f: Record<string, unknown>): { value: string; label: TextSegment[] }[] | undefined {
  const titled = (list: unknown[]) =>
    list.filter(isObject).map((o) => ({ value: String(o.const), label: inertSegments(typeof o.title === 'string' ? o.title : String(o.const)) }));
  if (Array.isArray(f.oneOf)) return titled(f.oneOf);
  if (Array.isArray(f.enum)) {
    const names = Array.isArray(f.enumNames) ? f.enumNames : [];
    return f.enum.map((v, i) => ({ value: String(v), label: inertSegments(typeof names[i] === 'string' ? (names[i] as string) : String(v)) }));
  }
  const items = isObject(f.items) ? f.items : undefined;
  if (items && Array.isArray(items.anyOf)) return titled(items.anyOf);
  if (items && Array.isArray(items.enum)) return items.enum.map((v) => ({ value: String(v), label: inertSegments(String(v)) }));
  return undefined;
}

/**
 * The display of `elicitation/create` params (form or URL mode). Throws a TypeError when the
 * params are not an elicitation (no string message).
 */
export function describeElicitation(params: unknown): ElicitationDisplay {
  if (!isObject(params) || typeof params.message !== 'string') throw new TypeError('describeElicitation needs elicitation/create params with a string "message"');
  const message = inertSegments(params.message);
  if (params.mode === 'url') {
    const url = typeof params.url === 'string' ? params.url : '';
    // A url that does not parse is no link at all.
    if (!URL.canParse(url)) return { mode: 'url', message, fields: [] };
    return { mode: 'url', message, fields: [], link: { url, host: new URL(url).host } };
  }
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const fields: FieldDisplay[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    if (!isObject(raw)) continue;
    const field: FieldDisplay = { name };
    if (typeof raw.title === 'string') field.title = inertSegments(raw.title);
    if (typeof raw.description === 'string') field.description = inertSegments(raw.description);
    const choices = choicesOf(raw);
    if (choices) field.choices = choices;
    fields.push(field);
  }
  return { mode: 'form', message, fields };
}

