/**
 * RFC 6570 URI Templates, levels 1 to 4: expansion with every operator (`+ # . / ; ? &`), prefix
 * (`:n`) and explode (`*`) modifiers, and the reverse: matching a URI against a template to get
 * its variables back.
 *
 * Matching is a hand-written, linear-time scanner, not a generated regular expression: each
 * expression takes the longest run of characters its operator allows, then gives back to the
 * last place where what follows it in the template (a literal, or the next expression's
 * leading character) occurs within that run. Literals are found with Knuth-Morris-Pratt, so
 * the work is O(expressions × URI length + template length), with no backtracking at all. URIs
 * and templates longer than a limit are refused before any scanning.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6570
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
 */

/** Longest template accepted, in UTF-16 code units. */
export const DEFAULT_MAX_TEMPLATE_LENGTH = 8_192;
/** Longest URI `match` looks at, in UTF-16 code units. */
export const DEFAULT_MAX_URI_LENGTH = 65_536;
/** Most expressions (`{...}`) in one template. */
export const MAX_TEMPLATE_EXPRESSIONS = 128;
/** Most variables in one expression. */
export const MAX_EXPRESSION_VARIABLES = 64;

/** A value to expand: a string (numbers and booleans are stringified), a list, or an associative array. */
export type UriTemplateValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[]
  | { readonly [key: string]: string | number | boolean };

/** Variables for {@link UriTemplate.expand}. */
export type UriTemplateVariables = { readonly [name: string]: UriTemplateValue };

/**
 * A variable as `match` gives it back, percent-decoded: a string; a list for an exploded
 * variable (`{/path*}`, `{?tag*}` with repeated `tag=`); or a record for an exploded named
 * variable whose pairs carry other names (`{?params*}` on `?a=1&b=2`).
 */
export type MatchedValue = string | string[] | Record<string, string>;

/** What `match` returns: only the variables present in the URI. */
export type MatchedVariables = Record<string, MatchedValue>;

/** Why a template or a URI was refused. */
export type UriTemplateErrorReason = 'syntax' | 'too-long' | 'bad-encoding' | 'bad-value';

export class UriTemplateError extends Error {
  override readonly name = 'UriTemplateError';
  constructor(
    readonly reason: UriTemplateErrorReason,
    message: string,
    /** Where in the template (syntax errors) the problem is. */
    readonly index?: number,
  ) {
    super(message);
  }
}

export interface UriTemplateOptions {
  /** Longest template accepted. Default {@link DEFAULT_MAX_TEMPLATE_LENGTH}. */
  maxLength?: number;
  /** Longest URI `match` accepts. Default {@link DEFAULT_MAX_URI_LENGTH}. */
  maxUriLength?: number;
}

interface Operator {
  readonly char: string;
  /** Written before the first defined variable ('' for none). */
  readonly first: string;
  /** Between variables and exploded items. */
  readonly sep: string;
  /** `name=value` pairs. */
  readonly named: boolean;
  /** What follows a name whose value is empty. */
  readonly ifemp: string;
  /** Reserved characters and pct-triplets pass through unencoded. */
  readonly allowReserved: boolean;
}

// RFC 6570 Appendix A, one row per operator.
const OPERATORS: Readonly<Record<string, Operator>> = {
  '': { char: '', first: '', sep: ',', named: false, ifemp: '', allowReserved: false },
  '+': { char: '+', first: '', sep: ',', named: false, ifemp: '', allowReserved: true },
  '#': { char: '#', first: '#', sep: ',', named: false, ifemp: '', allowReserved: true },
  '.': { char: '.', first: '.', sep: '.', named: false, ifemp: '', allowReserved: false },
  '/': { char: '/', first: '/', sep: '/', named: false, ifemp: '', allowReserved: false },
  ';': { char: ';', first: ';', sep: ';', named: true, ifemp: '', allowReserved: false },
  '?': { char: '?', first: '?', sep: '&', named: true, ifemp: '=', allowReserved: false },
  '&': { char: '&', first: '&', sep: '&', named: true, ifemp: '=', allowReserved: false },
};

/** Operators RFC 6570 reserves for future use: a template using them is refused. */
const RESERVED_OPERATORS = '=,!@|';

interface VarSpec {
  readonly name: string;
  /** `:n`: at most n characters of a string value. */
  readonly prefix: number | undefined;
  readonly explode: boolean;
}

interface LiteralPart {
  readonly kind: 'literal';
  readonly text: string;
  /** Knuth-Morris-Pratt failure table of `text`. */
  readonly fail: Int32Array;
}

interface ExpressionPart {
  readonly kind: 'expression';
  readonly op: Operator;
  readonly vars: readonly VarSpec[];
  /** Which ASCII characters a match of this expression may contain (non-ASCII always may). */
  readonly allowed: Uint8Array;
}

type Part = LiteralPart | ExpressionPart;

// ---------------------------------------------------------------- character classes

const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
const isUnreserved = (c: number) => isAlpha(c) || isDigit(c) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
const RESERVED = ":/?#[]@!$&'()*+,;=";
/** RFC 3986 reserved: gen-delims / sub-delims. */
const isReserved = (c: number) => c < 0x80 && RESERVED.includes(String.fromCharCode(c));

/** ASCII characters never allowed in a URI: controls, space, and `"<>\^`{|}` and DEL. */
function isForbiddenAscii(c: number): boolean {
  return c <= 0x20 || c === 0x7f || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x5c || c === 0x5e || c === 0x60 || c === 0x7b || c === 0x7c || c === 0x7d;
}

/** Characters a match of an expression with this operator may span. */
function allowedFor(op: Operator): Uint8Array {
  const table = new Uint8Array(128);
  // Characters that structure a URI and that the operator's expansion would have encoded.
  const excluded =
    op.char === '' || op.char === '.' || op.char === ';' ? '/?#' : op.char === '/' ? '?#' : op.char === '?' || op.char === '&' ? '#' : '';
  for (let c = 0; c < 128; c++) {
    table[c] = isForbiddenAscii(c) || excluded.includes(String.fromCharCode(c)) ? 0 : 1;
  }
  return table;
}

/**
 * Whether `uri` is a syntactically acceptable absolute URI: a scheme (RFC 3986 §3.1), no
 * whitespace, controls or characters that are never allowed, and `%` only in `%XX` triplets.
 * Non-ASCII characters are accepted (IRIs). Returns the problem, or undefined when fine.
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.1
 */
export function uriProblem(uri: string, maxLength = DEFAULT_MAX_URI_LENGTH): string | undefined {
  if (uri.length === 0) return 'the URI is empty';
  if (uri.length > maxLength) return `the URI is ${uri.length} characters long; at most ${maxLength} are accepted`;
  let i: number;
  if (!isAlpha(uri.charCodeAt(0))) return 'the URI must start with a scheme (a letter, then letters, digits, "+", "-" or ".", then ":")';
  for (i = 1; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 0x3a) break;
    if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) {
      return 'the URI must start with a scheme (a letter, then letters, digits, "+", "-" or ".", then ":")';
    }
  }
  if (i >= uri.length) return 'the URI has no scheme (no ":")';
  for (; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c < 0x80 && isForbiddenAscii(c)) return `the URI contains a character that is not allowed in URIs (code ${c}) at ${i}`;
    if (c === 0x25 && !(isHex(uri.charCodeAt(i + 1)) && isHex(uri.charCodeAt(i + 2)))) {
      return `the URI has a "%" not followed by two hex digits at ${i}`;
    }
    // Lone surrogates cannot be encoded as UTF-8.
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = uri.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return `the URI has an unpaired surrogate at ${i}`;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return `the URI has an unpaired surrogate at ${i}`;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- encoding

function pctByte(b: number): string {
  return '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
}

/** Percent-encode `value`: unreserved pass, and with `allowReserved` reserved characters and `%XX` too. */
function encode(value: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) {
      if (isUnreserved(c) || (allowReserved && isReserved(c))) out += value[i];
      else if (allowReserved && c === 0x25 && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
        out += value.slice(i, i + 3);
        i += 2;
      } else out += pctByte(c);
      continue;
    }
    // Non-ASCII: UTF-8 bytes, percent-encoded (one code point, which may be a surrogate pair).
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const ch = isHigh ? value.slice(i, i + 2) : value[i]!;
    try {
      out += encodeURIComponent(ch);
    } catch {
      throw new UriTemplateError('bad-value', `Cannot expand a value with an unpaired surrogate (at ${i})`);
    }
    if (isHigh) i++;
  }
  return out;
}

/** The first `n` code points of `s`. */
function prefixOf(s: string, n: number): string {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    if (count === n) return s.slice(0, i);
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    count++;
  }
  return s;
}

function codePointLength(s: string): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    count++;
  }
  return count;
}

function decode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    throw new UriTemplateError('bad-encoding', 'The URI has malformed percent-encoding (not %XX, or bytes that are not UTF-8)');
  }
}

// ---------------------------------------------------------------- parsing

function failureTable(text: string): Int32Array {
  const fail = new Int32Array(text.length);
  let k = 0;
  for (let i = 1; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = fail[k - 1]!;
    if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
    fail[i] = k;
  }
  return fail;
}

function literal(text: string): LiteralPart {
  return { kind: 'literal', text, fail: failureTable(text) };
}

function parseVarSpec(spec: string, at: number): VarSpec {
  let end = spec.length;
  let prefix: number | undefined;
  let explode = false;
  if (spec.endsWith('*')) {
    explode = true;
    end--;
  } else {
    const colon = spec.indexOf(':');
    if (colon >= 0) {
      const digits = spec.slice(colon + 1);
      // max-length = %x31-39 0*3DIGIT: 1 to 9999, no leading zero.
      if (!/^[1-9][0-9]{0,3}$/.test(digits)) {
        throw new UriTemplateError('syntax', `Invalid prefix modifier ":${digits}" (1 to 9999 expected) at ${at + colon}`, at + colon);
      }
      prefix = Number(digits);
      end = colon;
    }
  }
  const name = spec.slice(0, end);
  // varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded
  let prevDot = true;
  if (name.length === 0) throw new UriTemplateError('syntax', `Empty variable name at ${at}`, at);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x2e) {
      if (prevDot) throw new UriTemplateError('syntax', `Invalid variable name "${name}" at ${at}`, at + i);
      prevDot = true;
      continue;
    }
    prevDot = false;
    if (isAlpha(c) || isDigit(c) || c === 0x5f) continue;
    if (c === 0x25 && isHex(name.charCodeAt(i + 1)) && isHex(name.charCodeAt(i + 2))) {
      i += 2;
      continue;
    }
    throw new UriTemplateError('syntax', `Invalid character ${JSON.stringify(name[i])} in variable name "${name}" at ${at + i}`, at + i);
  }
  if (prevDot) throw new UriTemplateError('syntax', `Variable name "${name}" ends with "." at ${at}`, at);
  return { name, prefix, explode };
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let text = '';
  let expressions = 0;
  for (let i = 0; i < template.length; i++) {
    const c = template.charCodeAt(i);
    if (c === 0x7b) {
      const close = template.indexOf('}', i + 1);
      if (close < 0) throw new UriTemplateError('syntax', `Unclosed expression: "{" at ${i} has no "}"`, i);
      const open = template.indexOf('{', i + 1);
      if (open >= 0 && open < close) throw new UriTemplateError('syntax', `Nested "{" at ${open}`, open);
      if (++expressions > MAX_TEMPLATE_EXPRESSIONS) {
        throw new UriTemplateError('syntax', `Too many expressions: at most ${MAX_TEMPLATE_EXPRESSIONS} per template`, i);
      }
      if (text) parts.push(literal(text));
      text = '';
      let body = template.slice(i + 1, close);
      let opChar = '';
      if (body.length > 0 && RESERVED_OPERATORS.includes(body[0]!)) {
        throw new UriTemplateError('syntax', `Operator "${body[0]}" is reserved by RFC 6570 and not supported (at ${i + 1})`, i + 1);
      }
      if (body.length > 0 && Object.prototype.hasOwnProperty.call(OPERATORS, body[0]!) && body[0] !== '') {
        opChar = body[0]!;
        body = body.slice(1);
      }
      const op = OPERATORS[opChar]!;
      const specs = body.split(',');
      if (specs.length > MAX_EXPRESSION_VARIABLES) {
        throw new UriTemplateError('syntax', `Too many variables in one expression (at most ${MAX_EXPRESSION_VARIABLES}) at ${i}`, i);
      }
      let at = i + 1 + opChar.length;
      const vars: VarSpec[] = [];
      for (const spec of specs) {
        vars.push(parseVarSpec(spec, at));
        at += spec.length + 1;
      }
      parts.push({ kind: 'expression', op, vars, allowed: allowedFor(op) });
      i = close;
      continue;
    }
    if (c === 0x7d) throw new UriTemplateError('syntax', `Unmatched "}" at ${i}`, i);
    // Literals: any URI character, or "%XX"; not controls, space, `"'<>\^`|` nor a bare "%".
    if (c < 0x80 && (isForbiddenAscii(c) || c === 0x27)) {
      throw new UriTemplateError('syntax', `Character ${JSON.stringify(template[i])} is not allowed in a template literal (at ${i})`, i);
    }
    if (c === 0x25 && !(isHex(template.charCodeAt(i + 1)) && isHex(template.charCodeAt(i + 2)))) {
      throw new UriTemplateError('syntax', `"%" must start a %XX triplet in a template literal (at ${i})`, i);
    }
    text += template[i];
  }
  if (text) parts.push(literal(text));
  return parts;
}

// ---------------------------------------------------------------- expansion

/** Normalise a value: undefined for null, undefined, empty lists and empty associative arrays. */
function normalise(v: UriTemplateValue): { kind: 'string'; value: string } | { kind: 'list'; value: string[] } | { kind: 'assoc'; value: [string, string][] } | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { kind: 'string', value: String(v) };
  if (Array.isArray(v)) return v.length === 0 ? undefined : { kind: 'list', value: v.map(String) };
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)] as [string, string]);
    return entries.length === 0 ? undefined : { kind: 'assoc', value: entries };
  }
  throw new UriTemplateError('bad-value', `Cannot expand a value of type ${typeof v}`);
}

function expandExpression(part: ExpressionPart, vars: UriTemplateVariables): string {
  const { op } = part;
  let out = '';
  let first = true;
  for (const spec of part.vars) {
    const own = Object.prototype.hasOwnProperty.call(vars, spec.name) ? vars[spec.name] : undefined;
    const value = normalise(own);
    if (value === undefined) continue;
    out += first ? op.first : op.sep;
    first = false;
    const enc = (s: string) => encode(s, op.allowReserved);
    if (!spec.explode || value.kind === 'string') {
      if (op.named) out += spec.name;
      if (value.kind === 'string') {
        if (op.named) out += value.value === '' ? op.ifemp : '=';
        out += enc(spec.prefix === undefined ? value.value : prefixOf(value.value, spec.prefix));
      } else {
        if (op.named) out += '=';
        // Prefix modifiers do not apply to composite values (RFC 6570 §2.4.1).
        out += value.kind === 'list' ? value.value.map(enc).join(',') : value.value.map(([k, x]) => `${enc(k)},${enc(x)}`).join(',');
      }
      continue;
    }
    if (value.kind === 'list') {
      out += value.value.map((x) => (op.named ? spec.name + (x === '' ? op.ifemp : '=' + enc(x)) : enc(x))).join(op.sep);
    } else {
      out += value.value.map(([k, x]) => enc(k) + (op.named && x === '' ? op.ifemp : '=' + enc(x))).join(op.sep);
    }
  }
  return out;
}

// ---------------------------------------------------------------- matching

/** Start of the last occurrence of `lit` in `uri` that starts in [from, maxStart], or -1. KMP: linear. */
function lastOccurrence(uri: string, lit: LiteralPart, from: number, maxStart: number): number {
  const { text, fail } = lit;
  const n = text.length;
  const limit = Math.min(uri.length, maxStart + n);
  let k = 0;
  let last = -1;
  for (let i = from; i < limit; i++) {
    const c = uri.charCodeAt(i);
    while (k > 0 && c !== text.charCodeAt(k)) k = fail[k - 1]!;
    if (c === text.charCodeAt(k)) k++;
    if (k === n) {
      last = i - n + 1;
      k = fail[k - 1]!;
    }
  }
  return last;
}

/** Index of the last `code` in [from, to] (to inclusive when inside `uri`), or -1. */
function lastCharIn(uri: string, code: number, from: number, to: number): number {
  for (let i = Math.min(to, uri.length - 1); i >= from; i--) if (uri.charCodeAt(i) === code) return i;
  return -1;
}

function splitOn(s: string, sep: string): string[] {
  return s.split(sep);
}

/** A parsed RFC 6570 URI template. Construct once, expand and match many times. */
export class UriTemplate {
  readonly template: string;
  /** Every variable name, in order of appearance (a name used twice appears once). */
  readonly variableNames: readonly string[];
  private readonly parts: readonly Part[];
  private readonly maxUriLength: number;

  constructor(template: string, options: UriTemplateOptions = {}) {
    if (typeof template !== 'string') throw new TypeError('A URI template must be a string');
    const maxLength = options.maxLength ?? DEFAULT_MAX_TEMPLATE_LENGTH;
    if (template.length > maxLength) {
      throw new UriTemplateError('too-long', `The template is ${template.length} characters long; at most ${maxLength} are accepted`);
    }
    this.template = template;
    this.maxUriLength = options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH;
    this.parts = parse(template);
    const names: string[] = [];
    for (const p of this.parts) if (p.kind === 'expression') for (const v of p.vars) if (!names.includes(v.name)) names.push(v.name);
    this.variableNames = names;
  }

  /** Whether `s` contains at least one `{expression}`. */
  static isTemplate(s: string): boolean {
    const open = s.indexOf('{');
    return open >= 0 && s.indexOf('}', open) > open + 1;
  }

  toString(): string {
    return this.template;
  }

  /**
   * Expand with `variables` (RFC 6570 §3). Undefined, null, empty lists and empty associative
   * arrays are undefined: their expression contributes nothing.
   */
  expand(variables: UriTemplateVariables): string {
    let out = '';
    for (const p of this.parts) out += p.kind === 'literal' ? p.text : expandExpression(p, variables);
    return out;
  }

  /**
   * Match `uri` against this template and return its variables, percent-decoded, or `null`
   * when it does not match. Expressions with a leading character (`# . / ; ? &`) may be absent
   * from the URI; the others must match at least one character. Where a template is ambiguous
   * (RFC 6570 §1.4: templates are not designed to be reversed), a variable takes the longest
   * span that lets the next part of the template match right after it; there is no
   * backtracking beyond that, so the cost is linear in the URI's length.
   *
   * Throws {@link UriTemplateError} with reason `too-long` for a URI over the limit and
   * `bad-encoding` when a matched value's percent-encoding is malformed.
   */
  match(uri: string): MatchedVariables | null {
    if (typeof uri !== 'string') throw new TypeError('match() needs a string');
    if (uri.length > this.maxUriLength) {
      throw new UriTemplateError('too-long', `The URI is ${uri.length} characters long; at most ${this.maxUriLength} are matched`);
    }
    const values = new Map<string, MatchedValue>();
    const parts = this.parts;
    let pos = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.kind === 'literal') {
        if (!uri.startsWith(part.text, pos)) return null;
        pos += part.text.length;
        continue;
      }
      const op = part.op;
      let bodyStart = pos;
      if (op.first) {
        // An expression with a leading character is absent when that character is not here.
        if (uri[pos] !== op.first) continue;
        bodyStart = pos + 1;
      }
      let runEnd = bodyStart;
      const allowed = part.allowed;
      while (runEnd < uri.length) {
        const c = uri.charCodeAt(runEnd);
        if (c < 0x80 && allowed[c] === 0) break;
        runEnd++;
      }
      const next = parts[i + 1];
      let end: number;
      if (next === undefined) {
        if (runEnd !== uri.length) return null;
        end = runEnd;
      } else if (next.kind === 'literal') {
        end = lastOccurrence(uri, next, bodyStart, runEnd);
        if (end < 0) return null;
      } else if (next.op.first) {
        end = lastCharIn(uri, next.op.first.charCodeAt(0), bodyStart, runEnd);
        if (end < 0) end = runEnd;
      } else {
        end = runEnd;
      }
      if (!op.first && end === bodyStart) return null;
      if (!assign(part, uri.slice(bodyStart, end), values)) return null;
      pos = end;
    }
    if (pos !== uri.length) return null;
    return Object.fromEntries(values);
  }
}

/** Store the variables of one matched expression; false when a prefix modifier is exceeded. */
function assign(part: ExpressionPart, body: string, values: Map<string, MatchedValue>): boolean {
  const { op, vars } = part;
  const fits = (spec: VarSpec, v: string) => spec.prefix === undefined || codePointLength(v) <= spec.prefix;
  if (!op.named) {
    const items = splitOn(body, op.sep);
    let idx = 0;
    for (let v = 0; v < vars.length && idx < items.length; v++) {
      const spec = vars[v]!;
      const after = vars.length - v - 1;
      if (v === vars.length - 1) {
        if (spec.explode) values.set(spec.name, items.slice(idx).map(decode));
        else {
          const s = decode(items.slice(idx).join(op.sep));
          if (!fits(spec, s)) return false;
          values.set(spec.name, s);
        }
        idx = items.length;
      } else if (spec.explode) {
        const take = Math.max(1, items.length - idx - after);
        values.set(spec.name, items.slice(idx, idx + take).map(decode));
        idx += take;
      } else {
        const s = decode(items[idx++]!);
        if (!fits(spec, s)) return false;
        values.set(spec.name, s);
      }
    }
    return true;
  }
  // Named operators: `name=value` pairs separated by `sep`; matched by name, in any order.
  const byName = new Map<string, VarSpec>();
  for (const spec of vars) if (!byName.has(spec.name)) byName.set(spec.name, spec);
  const exploded = vars.find((s) => s.explode);
  const lists = new Map<string, string[]>();
  const record = new Map<string, string>();
  for (const item of splitOn(body, op.sep)) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = eq < 0 ? item : item.slice(0, eq);
    const raw = eq < 0 ? '' : item.slice(eq + 1);
    const spec = byName.get(name);
    if (spec?.explode) {
      let list = lists.get(name);
      if (!list) lists.set(name, (list = []));
      list.push(decode(raw));
    } else if (spec) {
      if (values.has(name)) continue;
      const s = decode(raw);
      if (!fits(spec, s)) return false;
      values.set(name, s);
    } else if (exploded) {
      record.set(decode(name), decode(raw));
    }
    // Pairs no variable asks for (extra query parameters) are ignored.
  }
  for (const [name, list] of lists) values.set(name, list);
  if (exploded && record.size > 0 && !lists.has(exploded.name)) values.set(exploded.name, Object.fromEntries(record));
  return true;
}

/** Expand `template` with `variables` in one call. */
export function expandUriTemplate(template: string, variables: UriTemplateVariables): string {
  return new UriTemplate(template).expand(variables);
}
