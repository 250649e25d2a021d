/**
 * What the server checks around an elicitation, before sending and after the answer:
 *
 * - the form's `requestedSchema` is the restricted subset MCP allows: a flat object of
 *   primitive fields (string with format / length / pattern, number, integer, boolean), the
 *   SEP-1330 enum forms (`enum`, `oneOf` of `{const, title}`, multi-select arrays of `enum` or
 *   `anyOf` of `{const, title}`) and SEP-1034 defaults; shaped for the negotiated revision
 *   (2025-06-18: titled single-select becomes `enum` + `enumNames`, non-boolean defaults and
 *   `$schema` are dropped; multi-select cannot be expressed and is refused);
 * - an accepted answer's `content` matches that schema;
 * - a URL-mode `url` is a valid http(s) URL that carries no credentials;
 * - a form's text (message, titles, descriptions, option labels) has no URL a client could
 *   render as a link: a warning, since it is a SHOULD NOT ({@link clickableUrlsInForm}).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
import { allows, type Revision } from '../protocol/revisions.js';
import { urlsInText } from '../protocol/text-urls.js';
import type { ElicitRequestedSchema, PrimitiveSchemaDefinition } from '../protocol/schema/elicitation.js';
import { emitWarning } from '../host-warning.js';

/** The value of one answered field. */
export type ElicitValue = string | number | boolean | string[];

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
const COMMON = ['type', 'title', 'description'];
const STRING_KEYS = new Set([...COMMON, 'minLength', 'maxLength', 'pattern', 'format', 'default']);
const ENUM_KEYS = new Set([...COMMON, 'enum', 'enumNames', 'default']);
const ONEOF_KEYS = new Set([...COMMON, 'oneOf', 'default']);
const NUMBER_KEYS = new Set([...COMMON, 'minimum', 'maximum', 'default']);
const BOOLEAN_KEYS = new Set([...COMMON, 'default']);
const ARRAY_KEYS = new Set([...COMMON, 'minItems', 'maxItems', 'items', 'default']);
const TOP_KEYS = new Set(['type', 'properties', 'required', '$schema', 'additionalProperties']);

/**
 * Field names and titles that look like credentials or other sensitive data, which form mode
 * must not ask for (use URL mode). A heuristic: callers can opt out.
 */
const SENSITIVE = /password|passwd|passphrase|secret|api[\s_-]?key|access[\s_-]?token|refresh[\s_-]?token|private[\s_-]?key|credit[\s_-]?card|card[\s_-]?number|cvv|\bssn\b|social[\s_-]?security/i;
/** Query parameters that would make a URL carry credentials or be pre-authenticated. */
const SENSITIVE_QUERY = new Set([
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'api_key',
  'apikey',
  'client_secret',
  'sig',
  'signature',
]);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNonNegInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function unknownKey(obj: Record<string, unknown>, allowed: Set<string>): string | undefined {
  for (const k of Object.keys(obj)) if (!allowed.has(k)) return k;
  return undefined;
}

function titledOptions(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || v.length === 0) throw new Error(`${where} must be a non-empty array of { const, title }`);
  const out: string[] = [];
  for (const o of v) {
    if (!isObject(o) || typeof o.const !== 'string' || typeof o.title !== 'string' || unknownKey(o, new Set(['const', 'title']))) {
      throw new Error(`${where} must contain only { const: string, title: string } options`);
    }
    if (out.includes(o.const)) throw new Error(`${where} has the value "${o.const}" twice`);
    out.push(o.const);
  }
  return out;
}

function plainEnum(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'string')) throw new Error(`${where} must be a non-empty array of strings`);
  if (new Set(v).size !== v.length) throw new Error(`${where} has duplicate values`);
  return v as string[];
}

/** The values an enum-like field accepts (single or multi), or undefined for a free field. */
export function optionsOf(field: PrimitiveSchemaDefinition): string[] | undefined {
  const f = field as Record<string, unknown>;
  if (Array.isArray(f.enum)) return f.enum as string[];
  if (Array.isArray(f.oneOf)) return (f.oneOf as { const: string }[]).map((o) => o.const);
  if (f.type === 'array' && isObject(f.items)) {
    const items = f.items;
    if (Array.isArray(items.enum)) return items.enum as string[];
    if (Array.isArray(items.anyOf)) return (items.anyOf as { const: string }[]).map((o) => o.const);
  }
  return undefined;
}

/**
 * Check a form schema and shape it for `revision`. Throws an Error saying which field is wrong
 * and why; returns the schema to send.
 */
export function prepareRequestedSchema(schema: unknown, revision: Revision, options: { allowSensitiveFields?: boolean } = {}): ElicitRequestedSchema {
  if (!isObject(schema)) throw new Error('requestedSchema must be an object');
  if (schema.type !== 'object') throw new Error('requestedSchema must have type "object" (a flat object of primitive fields)');
  const extra = unknownKey(schema, TOP_KEYS);
  if (extra) throw new Error(`requestedSchema has "${extra}", which the restricted elicitation schema does not allow (only type, properties, required, $schema)`);
  if (!isObject(schema.properties)) throw new Error('requestedSchema.properties must be an object');
  if (schema.$schema !== undefined && typeof schema.$schema !== 'string') throw new Error('requestedSchema.$schema must be a string');
  const defaults = allows(revision, 'elicitationDefaults');
  const enums = allows(revision, 'elicitationEnumSchemas');
  const properties: Record<string, PrimitiveSchemaDefinition> = {};
  for (const [name, raw] of Object.entries(schema.properties)) {
    const where = `requestedSchema.properties.${name}`;
    if (!isObject(raw)) throw new Error(`${where} must be an object`);
    if (!options.allowSensitiveFields && (SENSITIVE.test(name) || (typeof raw.title === 'string' && SENSITIVE.test(raw.title)))) {
      throw new Error(
        `${where} looks like sensitive information (credentials, keys, payment data); form mode must not request it: use URL mode (or pass allowSensitiveFields if it is not sensitive)`,
      );
    }
    for (const k of ['title', 'description'] as const) if (raw[k] !== undefined && typeof raw[k] !== 'string') throw new Error(`${where}.${k} must be a string`);
    const field: Record<string, unknown> = { ...raw };
    const type = raw.type;
    if (type === 'string' && raw.enum !== undefined) {
      const bad = unknownKey(raw, ENUM_KEYS);
      if (bad) throw new Error(`${where} has "${bad}", which an enum field does not allow`);
      const values = plainEnum(raw.enum, `${where}.enum`);
      if (raw.enumNames !== undefined) {
        const names = raw.enumNames;
        if (!Array.isArray(names) || names.length !== values.length || names.some((x) => typeof x !== 'string')) {
          throw new Error(`${where}.enumNames must be an array of strings as long as enum`);
        }
      }
      checkDefault(raw.default, (d) => typeof d === 'string' && values.includes(d), `${where}.default must be one of enum`);
      if (!defaults) delete field.default;
    } else if (type === 'string' && raw.oneOf !== undefined) {
      const bad = unknownKey(raw, ONEOF_KEYS);
      if (bad) throw new Error(`${where} has "${bad}", which a titled enum field does not allow`);
      const values = titledOptions(raw.oneOf, `${where}.oneOf`);
      checkDefault(raw.default, (d) => typeof d === 'string' && values.includes(d), `${where}.default must be one of the oneOf values`);
      if (!enums) {
        // 2025-06-18 has no titled enums: the same choice, as enum + enumNames.
        delete field.oneOf;
        field.enum = values;
        field.enumNames = (raw.oneOf as { title: string }[]).map((o) => o.title);
      }
      if (!defaults) delete field.default;
    } else if (type === 'string') {
      const bad = unknownKey(raw, STRING_KEYS);
      if (bad) throw new Error(`${where} has "${bad}", which a string field does not allow`);
      if (raw.minLength !== undefined && !isNonNegInt(raw.minLength)) throw new Error(`${where}.minLength must be a non-negative integer`);
      if (raw.maxLength !== undefined && !isNonNegInt(raw.maxLength)) throw new Error(`${where}.maxLength must be a non-negative integer`);
      if (isNonNegInt(raw.minLength) && isNonNegInt(raw.maxLength) && raw.minLength > raw.maxLength) throw new Error(`${where}: minLength is above maxLength`);
      if (raw.format !== undefined && !FORMATS.has(raw.format as string)) throw new Error(`${where}.format must be one of email, uri, date, date-time`);
      if (raw.pattern !== undefined) {
        if (typeof raw.pattern !== 'string') throw new Error(`${where}.pattern must be a string`);
        try {
          new RegExp(raw.pattern, 'u');
        } catch {
          throw new Error(`${where}.pattern is not a valid regular expression`);
        }
      }
      checkDefault(raw.default, (d) => typeof d === 'string', `${where}.default must be a string`);
      if (!defaults) delete field.default;
    } else if (type === 'number' || type === 'integer') {
      const bad = unknownKey(raw, NUMBER_KEYS);
      if (bad) throw new Error(`${where} has "${bad}", which a number field does not allow`);
      for (const k of ['minimum', 'maximum'] as const) {
        if (raw[k] !== undefined && !(typeof raw[k] === 'number' && Number.isFinite(raw[k]))) throw new Error(`${where}.${k} must be a finite number`);
      }
      if (typeof raw.minimum === 'number' && typeof raw.maximum === 'number' && raw.minimum > raw.maximum) throw new Error(`${where}: minimum is above maximum`);
      checkDefault(
        raw.default,
        (d) => typeof d === 'number' && Number.isFinite(d) && (type === 'number' || Number.isInteger(d)),
        `${where}.default must be ${type === 'integer' ? 'an integer' : 'a number'}`,
      );
      if (!defaults) delete field.default;
    } else if (type === 'boolean') {
      const bad = unknownKey(raw, BOOLEAN_KEYS);
      if (bad) throw new Error(`${where} has "${bad}", which a boolean field does not allow`);
      checkDefault(raw.default, (d) => typeof d === 'boolean', `${where}.default must be a boolean`);
    } else if (type === 'array') {
      if (!enums) throw new Error(`${where}: multi-select fields need protocol revision 2025-11-25 (this session negotiated ${revision})`);
      const bad = unknownKey(raw, ARRAY_KEYS);
      if (bad) throw new Error(`${where} has "${bad}", which a multi-select field does not allow`);
      const items = raw.items;
      let values: string[];
      if (isObject(items) && items.type === 'string' && items.enum !== undefined && !unknownKey(items, new Set(['type', 'enum']))) {
        values = plainEnum(items.enum, `${where}.items.enum`);
      } else if (isObject(items) && items.anyOf !== undefined && !unknownKey(items, new Set(['anyOf']))) {
        values = titledOptions(items.anyOf, `${where}.items.anyOf`);
      } else {
        throw new Error(`${where}.items must be { type: "string", enum: [...] } or { anyOf: [{ const, title }, ...] }: arrays may only hold enum choices`);
      }
      if (raw.minItems !== undefined && !isNonNegInt(raw.minItems)) throw new Error(`${where}.minItems must be a non-negative integer`);
      if (raw.maxItems !== undefined && !isNonNegInt(raw.maxItems)) throw new Error(`${where}.maxItems must be a non-negative integer`);
      if (isNonNegInt(raw.minItems) && isNonNegInt(raw.maxItems) && raw.minItems > raw.maxItems) throw new Error(`${where}: minItems is above maxItems`);
      checkDefault(
        raw.default,
        (d) => Array.isArray(d) && d.every((x) => typeof x === 'string' && values.includes(x)),
        `${where}.default must be an array of the allowed values`,
      );
    } else if (type === 'object' || raw.properties !== undefined) {
      throw new Error(`${where} is an object: elicitation forms are flat (only string, number, integer, boolean and enum fields)`);
    } else {
      throw new Error(
        `${where} has type ${JSON.stringify(type)}; elicitation forms allow only string, number, integer, boolean, enum and multi-select fields`,
      );
    }
    properties[name] = field as PrimitiveSchemaDefinition;
  }
  const out: ElicitRequestedSchema = { type: 'object', properties };
  if (schema.required !== undefined) {
    const req = schema.required;
    if (!Array.isArray(req) || req.some((r) => typeof r !== 'string')) throw new Error('requestedSchema.required must be an array of strings');
    for (const r of req as string[]) if (!Object.prototype.hasOwnProperty.call(properties, r)) throw new Error(`requestedSchema.required names "${r}", which is not a property`);
    if (new Set(req).size !== req.length) throw new Error('requestedSchema.required has duplicates');
    out.required = [...(req as string[])];
  }
  // `$schema` arrived with 2025-11-25; `additionalProperties` is not part of the restricted schema.
  if (typeof schema.$schema === 'string' && allows(revision, 'jsonSchema2020Default')) out.$schema = schema.$schema;
  return out;
}

function checkDefault(d: unknown, ok: (d: unknown) => boolean, message: string): void {
  if (d !== undefined && !ok(d)) throw new Error(message);
}

/** Problems of an accepted form answer against the schema that was sent (empty when fine). */
export function contentProblems(schema: ElicitRequestedSchema, content: unknown): string[] {
  if (!isObject(content)) return ['content must be an object of the requested fields'];
  const problems: string[] = [];
  const props = schema.properties;
  for (const key of Object.keys(content)) {
    if (!Object.prototype.hasOwnProperty.call(props, key)) problems.push(`"${key.slice(0, 100)}" was not requested`);
  }
  for (const r of schema.required ?? []) if (content[r] === undefined) problems.push(`"${r}" is required`);
  for (const [name, field] of Object.entries(props)) {
    const v = content[name];
    if (v === undefined) continue;
    const problem = fieldProblem(field, v);
    if (problem) problems.push(`"${name}" ${problem}`);
  }
  return problems;
}

function fieldProblem(field: PrimitiveSchemaDefinition, v: unknown): string | undefined {
  const f = field as Record<string, unknown>;
  const options = optionsOf(field);
  switch (f.type) {
    case 'string': {
      if (typeof v !== 'string') return `must be a string (got ${describe(v)})`;
      if (options) return options.includes(v) ? undefined : `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
      const n = codePoints(v);
      if (typeof f.minLength === 'number' && n < f.minLength) return `must be at least ${f.minLength} characters`;
      if (typeof f.maxLength === 'number' && n > f.maxLength) return `must be at most ${f.maxLength} characters`;
      if (typeof f.pattern === 'string' && !new RegExp(f.pattern, 'u').test(v)) return `must match ${f.pattern}`;
      if (typeof f.format === 'string' && !formatOk(f.format, v)) return `must be a valid ${f.format}`;
      return undefined;
    }
    case 'number':
    case 'integer':
      if (typeof v !== 'number' || !Number.isFinite(v)) return `must be a number (got ${describe(v)})`;
      if (f.type === 'integer' && !Number.isInteger(v)) return 'must be an integer';
      if (typeof f.minimum === 'number' && v < f.minimum) return `must be at least ${f.minimum}`;
      if (typeof f.maximum === 'number' && v > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `must be a boolean (got ${describe(v)})`;
    case 'array': {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return `must be an array of strings (got ${describe(v)})`;
      const bad = v.find((x) => !options?.includes(x as string));
      if (bad !== undefined) return `has "${String(bad).slice(0, 100)}", which is not one of the choices`;
      if (typeof f.minItems === 'number' && v.length < f.minItems) return `must have at least ${f.minItems} choices`;
      if (typeof f.maxItems === 'number' && v.length > f.maxItems) return `must have at most ${f.maxItems} choices`;
      return undefined;
    }
    default:
      return 'has a type the schema does not define';
  }
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function formatOk(format: string, v: string): boolean {
  switch (format) {
    case 'email': {
      // One "@", something before it, a dotted domain after it, no whitespace (no regex: linear).
      const at = v.indexOf('@');
      if (at <= 0 || at !== v.lastIndexOf('@') || /\s/.test(v)) return false;
      const domain = v.slice(at + 1);
      const dot = domain.indexOf('.');
      return dot > 0 && dot < domain.length - 1 && !domain.endsWith('.');
    }
    case 'uri':
      return URL.canParse(v) && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(v);
    case 'date': {
      const m = DATE.exec(v);
      if (!m) return false;
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
    }
    case 'date-time':
      return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v));
    default:
      return true;
  }
}

/**
 * What is wrong with a URL-mode URL, or undefined: it must parse, be https (http only for
 * loopback hosts, in development), and carry no credentials (userinfo, token-like query
 * parameters), since the client sees it and it must not be pre-authenticated.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#safe-url-handling
 */
export function urlProblem(url: unknown, options: { allowSensitiveFields?: boolean } = {}): string | undefined {
  if (typeof url !== 'string' || url.length === 0) return '"url" must be a non-empty string';
  if (url.length > 8192) return '"url" is longer than 8192 characters';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"url" is not a valid URL: ${url.slice(0, 200)}`;
  }
  const loopback = parsed.hostname === 'localhost' || parsed.hostname === '127.0.0.1' || parsed.hostname === '[::1]';
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    return `"url" must be an https URL (http only for localhost), not ${parsed.protocol}`;
  }
  if (parsed.username || parsed.password) return '"url" must not carry credentials (user:password@)';
  if (!options.allowSensitiveFields) {
    for (const key of parsed.searchParams.keys()) {
      if (SENSITIVE_QUERY.has(key.toLowerCase())) {
        return `"url" has a "${key}" query parameter: a URL sent to the client must not carry credentials or be pre-authenticated`;
      }
    }
  }
  return undefined;
}

/** A URL in a form elicitation's display text: where, and the URL. */
export interface FormUrl {
  /** `message`, or the path of the text in the schema (`requestedSchema.properties.site.description`). */
  where: string;
  url: string;
}

/**
 * The URLs in the text a client shows for a form elicitation: the message, each field's
 * title and description, and the labels of its choices. Servers should not put URLs meant to
 * be clicked there; a link belongs in a URL-mode elicitation, whose `url` the client presents
 * with consent.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#safe-url-handling
 */
export function clickableUrlsInForm(message: unknown, schema: ElicitRequestedSchema): FormUrl[] {
  const found: FormUrl[] = [];
  const scan = (text: unknown, where: string) => {
    if (typeof text !== 'string') return;
    for (const { url } of urlsInText(text)) found.push({ where, url });
  };
  scan(message, 'message');
  for (const [name, field] of Object.entries(schema.properties)) {
    const f = field as Record<string, unknown>;
    const at = `requestedSchema.properties.${name}`;
    scan(f.title, `${at}.title`);
    scan(f.description, `${at}.description`);
    if (Array.isArray(f.enumNames)) f.enumNames.forEach((label, i) => scan(label, `${at}.enumNames[${i}]`));
    if (Array.isArray(f.oneOf)) f.oneOf.forEach((o, i) => scan((o as { title?: unknown }).title, `${at}.oneOf[${i}].title`));
    const items = f.items as { anyOf?: unknown } | undefined;
    if (items && Array.isArray(items.anyOf)) items.anyOf.forEach((o, i) => scan((o as { title?: unknown }).title, `${at}.items.anyOf[${i}].title`));
  }
  return found;
}

/** Places already warned about (bounded: a server sending many different forms warns about the first ones). */
const warned = new Set<string>();
const MAX_WARNED = 256;

/**
 * Warn (Node's warning channel: stderr, never stdout) when a form elicitation's text has URLs,
 * once per place; the elicitation is still sent. Returns what was found.
 */
export function warnClickableUrlsInForm(message: unknown, schema: ElicitRequestedSchema): FormUrl[] {
  const found = clickableUrlsInForm(message, schema);
  if (found.length === 0) return found;
  const key = found.map((f) => `${f.where} ${f.url}`).join('\n');
  if (warned.has(key) || warned.size >= MAX_WARNED) return found;
  warned.add(key);
  emitWarning(
    `A form elicitation has URLs in its text (${found.map((f) => `${f.where}: ${f.url}`).join('; ')}). ` +
      'Servers should not put URLs meant to be clicked in form mode; send a URL-mode elicitation for a link the user should open.',
    { type: 'McpServerWarning', code: 'clickable-url-in-form-elicitation' },
  );
  return found;
}
