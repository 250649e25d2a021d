/**
 * The restricted JSON Schema of form-mode elicitation: checking a server's `requestedSchema`,
 * validating the user's answer against it, and filling in defaults (SEP-1034). Pure functions,
 * no I/O: the client elicitation machine uses them in its actions.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
import type { ElicitRequestedSchema, PrimitiveSchemaDefinition } from '../protocol/schema/elicitation.js';

/** A value a form field may hold. */
export type FormValue = string | number | boolean | string[];

/** The values of a form, by field name. */
export type FormContent = { [name: string]: FormValue };

/** One problem with an answer: the field (empty for the whole form) and what is wrong. */
export interface FieldError {
  field: string;
  message: string;
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function isTitledOptions(v: unknown): v is { const: string; title?: string }[] {
  return Array.isArray(v) && v.every((o) => isObject(o) && typeof o.const === 'string');
}

/**
 * Why `schema` is not a valid form schema (a flat object of primitive fields), or undefined when
 * it is. A server that sends anything else gets -32602.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export function checkRequestedSchema(schema: unknown): string | undefined {
  if (!isObject(schema)) return '"requestedSchema" must be an object';
  if (schema.type !== 'object') return '"requestedSchema.type" must be "object"';
  if (schema.properties !== undefined && !isObject(schema.properties)) return '"requestedSchema.properties" must be an object';
  if (schema.required !== undefined && !isStringArray(schema.required)) return '"requestedSchema.required" must be an array of strings';
  for (const [name, def] of Object.entries((schema.properties as Record<string, unknown> | undefined) ?? {})) {
    const problem = checkField(def);
    if (problem) return `field "${name}": ${problem}`;
  }
  return undefined;
}

function checkField(def: unknown): string | undefined {
  if (!isObject(def)) return 'must be a schema object';
  const num = (k: string) => (def[k] === undefined || typeof def[k] === 'number' ? undefined : `"${k}" must be a number`);
  switch (def.type) {
    case 'string': {
      if (def.enum !== undefined && !isStringArray(def.enum)) return '"enum" must be an array of strings';
      if (def.oneOf !== undefined && !isTitledOptions(def.oneOf)) return '"oneOf" must list { const, title } options';
      if (def.format !== undefined && (typeof def.format !== 'string' || !FORMATS.has(def.format))) {
        return `unsupported format ${JSON.stringify(def.format)} (supported: ${[...FORMATS].join(', ')})`;
      }
      if (def.pattern !== undefined) {
        if (typeof def.pattern !== 'string') return '"pattern" must be a string';
        try {
          new RegExp(def.pattern, 'u');
        } catch {
          return `"pattern" is not a valid regular expression`;
        }
      }
      if (def.default !== undefined && typeof def.default !== 'string') return '"default" must be a string';
      return num('minLength') ?? num('maxLength');
    }
    case 'number':
    case 'integer':
      if (def.default !== undefined && typeof def.default !== 'number') return '"default" must be a number';
      return num('minimum') ?? num('maximum');
    case 'boolean':
      if (def.default !== undefined && typeof def.default !== 'boolean') return '"default" must be a boolean';
      return undefined;
    case 'array': {
      const items = def.items;
      if (!isObject(items)) return 'a multi-select field needs "items"';
      const plain = items.type === 'string' && isStringArray(items.enum);
      const titled = isTitledOptions(items.anyOf);
      if (!plain && !titled) return 'array fields must be multi-select enums ("items" with a string "enum" or "anyOf" options)';
      if (def.default !== undefined && !isStringArray(def.default)) return '"default" must be an array of strings';
      return num('minItems') ?? num('maxItems');
    }
    default:
      return `type ${JSON.stringify(def.type)} is not allowed: form fields are string, number, integer, boolean or a multi-select enum`;
  }
}

/** The allowed values of an enum field, or undefined for a free field. */
function allowedValues(def: PrimitiveSchemaDefinition): string[] | undefined {
  const d = def as Record<string, unknown>;
  if (d.type === 'array') {
    const items = d.items as Record<string, unknown>;
    if (isStringArray(items.enum)) return items.enum;
    if (isTitledOptions(items.anyOf)) return items.anyOf.map((o) => o.const);
    return undefined;
  }
  if (isStringArray(d.enum)) return d.enum;
  if (isTitledOptions(d.oneOf)) return d.oneOf.map((o) => o.const);
  return undefined;
}

function formatOk(format: string, value: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(value);
    case 'uri':
      try {
        new URL(value);
        return true;
      } catch {
        return false;
      }
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!m) return false;
      const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
      return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
    }
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
    default:
      return true;
  }
}

function fieldErrors(name: string, def: PrimitiveSchemaDefinition, value: unknown): string[] {
  const d = def as Record<string, any>;
  const out: string[] = [];
  const allowed = allowedValues(def);
  switch (d.type) {
    case 'string': {
      if (typeof value !== 'string') return [`must be a string, got ${describe(value)}`];
      const len = [...value].length;
      if (typeof d.minLength === 'number' && len < d.minLength) out.push(`must be at least ${d.minLength} characters`);
      if (typeof d.maxLength === 'number' && len > d.maxLength) out.push(`must be at most ${d.maxLength} characters`);
      if (typeof d.pattern === 'string' && !new RegExp(d.pattern, 'u').test(value)) out.push(`must match the pattern ${d.pattern}`);
      if (typeof d.format === 'string' && !formatOk(d.format, value)) out.push(`must be a valid ${d.format}`);
      if (allowed && !allowed.includes(value)) out.push(`must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
      return out;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return [`must be a number, got ${describe(value)}`];
      if (d.type === 'integer' && !Number.isInteger(value)) out.push('must be a whole number');
      if (typeof d.minimum === 'number' && value < d.minimum) out.push(`must be at least ${d.minimum}`);
      if (typeof d.maximum === 'number' && value > d.maximum) out.push(`must be at most ${d.maximum}`);
      return out;
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`must be true or false, got ${describe(value)}`];
    case 'array': {
      if (!isStringArray(value)) return [`must be an array of strings, got ${describe(value)}`];
      if (typeof d.minItems === 'number' && value.length < d.minItems) out.push(`must have at least ${d.minItems} choices`);
      if (typeof d.maxItems === 'number' && value.length > d.maxItems) out.push(`must have at most ${d.maxItems} choices`);
      const bad = allowed ? value.filter((v) => !allowed.includes(v)) : [];
      if (bad.length) out.push(`${bad.map((b) => JSON.stringify(b)).join(', ')} not among the choices`);
      if (new Set(value).size !== value.length) out.push('has a choice twice');
      return out;
    }
    default:
      return [`field "${name}" has an unsupported schema`];
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

/**
 * Validate a form answer against the requested schema: every required field present, no
 * undeclared fields, each value of its field's type and within its limits. Empty when valid.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#form-mode-security
 */
export function validateFormAnswer(schema: ElicitRequestedSchema, content: unknown): FieldError[] {
  if (!isObject(content)) return [{ field: '', message: `the answer must be an object of field values, got ${describe(content)}` }];
  const props = schema.properties ?? {};
  const errors: FieldError[] = [];
  for (const name of schema.required ?? []) {
    if (content[name] === undefined) errors.push({ field: name, message: 'is required' });
  }
  for (const [name, value] of Object.entries(content)) {
    const def = props[name];
    if (!def) {
      errors.push({ field: name, message: 'is not a field of this form' });
      continue;
    }
    if (value === undefined) continue;
    for (const message of fieldErrors(name, def, value)) errors.push({ field: name, message });
  }
  return errors;
}

/**
 * The default of each field that has one (SEP-1034): what a form should be pre-filled with.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export function formDefaults(schema: ElicitRequestedSchema): FormContent {
  const out: FormContent = {};
  for (const [name, def] of Object.entries(schema.properties ?? {})) {
    const d = (def as { default?: unknown }).default;
    if (d !== undefined) out[name] = (Array.isArray(d) ? [...d] : d) as FormValue;
  }
  return out;
}

/**
 * `content` with each omitted field that has a default filled in (SEP-1034). Fields the user
 * gave are kept as given.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
 */
export function fillFormDefaults(schema: ElicitRequestedSchema, content: unknown): unknown {
  if (!isObject(content)) return content;
  return { ...formDefaults(schema), ...stripUndefined(content) };
}

function stripUndefined(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}
