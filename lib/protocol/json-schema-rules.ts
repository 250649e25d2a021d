/**
 * The rules MCP sets for the JSON Schemas in its messages (tool input and output schemas,
 * elicitation schemas), checked before a schema is used, on both sides:
 *
 * - the dialect is 2020-12 unless `$schema` names another one; we support 2020-12, 2019-09,
 *   draft-07 (and draft-06, validated as draft-07) and draft-04; any other `$schema` is refused by
 *   name, not validated as something else;
 * - a schema must be valid in its dialect (keywords with values of the right shape);
 * - a `$ref` is never fetched (there is no option to fetch one): one that does not resolve inside
 *   the schema itself is refused, not treated as permissive; so are `$dynamicRef` and
 *   `$recursiveRef` other than `"#"`, which the validator would skip;
 * - bounds on depth and on the number of subschemas, so that a hostile schema cannot make the
 *   validator a denial-of-service vector.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#json-schema-usage
 */
import type { SchemaDraft } from '@cfworker/json-schema';
import { allows, type Revision } from './revisions.js';

/** The dialects we validate, by the names `$schema` uses. */
export const SUPPORTED_SCHEMA_DIALECTS = ['2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04'] as const;

/** Bounds on a schema's shape. */
export interface SchemaLimits {
  /** Deepest nesting of subschemas. Default 64. */
  maxDepth?: number;
  /** Most subschemas in one schema. Default 10,000. */
  maxSubschemas?: number;
}

export const DEFAULT_SCHEMA_LIMITS: Required<SchemaLimits> = { maxDepth: 64, maxSubschemas: 10_000 };

/** What is wrong with a schema, at a JSON Pointer into it. */
export interface SchemaProblem {
  kind: 'dialect' | 'invalid' | 'unresolved-ref' | 'too-deep' | 'too-large';
  /** JSON Pointer of the offending keyword's schema (`''` is the root). */
  at: string;
  message: string;
}

/**
 * The validator dialect of `schema`: its `$schema` when it names a dialect we support; without
 * `$schema`, 2020-12 where the revision makes it the default (2025-11-25 on; no revision: the
 * newest rules), draft-07 before. Undefined for a `$schema` we do not support.
 */
export function schemaDialect(schema: object, revision?: Revision): SchemaDraft | undefined {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return revision === undefined || allows(revision, 'jsonSchema2020Default') ? '2020-12' : '7';
  if (typeof declared !== 'string') return undefined;
  if (/json-schema\.org\/draft\/2020-12\/schema/.test(declared)) return '2020-12';
  if (/json-schema\.org\/draft\/2019-09\/schema/.test(declared)) return '2019-09';
  if (/json-schema\.org\/draft-0[67]\/schema/.test(declared)) return '7';
  if (/json-schema\.org\/draft-04\/schema/.test(declared)) return '4';
  return undefined;
}

/** Keywords whose value is one subschema. */
const ONE_SCHEMA = ['additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems', 'contentSchema'];
/** Keywords whose value is an object of subschemas. */
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a non-empty array of subschemas. */
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const NUMBERS = ['multipleOf', 'maximum', 'minimum'];
const COUNTS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties', 'maxContains', 'minContains'];
const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

/**
 * Everything wrong with `schema` under MCP's rules (empty when it is usable), the first
 * problems found; the walk stops at the bounds.
 */
export function schemaProblems(schema: unknown, revision?: Revision, limits: SchemaLimits = {}): SchemaProblem[] {
  const maxDepth = limits.maxDepth ?? DEFAULT_SCHEMA_LIMITS.maxDepth;
  const maxSubschemas = limits.maxSubschemas ?? DEFAULT_SCHEMA_LIMITS.maxSubschemas;
  const problems: SchemaProblem[] = [];
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    return [{ kind: 'invalid', at: '', message: 'a schema must be an object' }];
  }
  const dialect = schemaDialect(schema, revision);
  if (dialect === undefined) {
    const declared = (schema as { $schema?: unknown }).$schema;
    return [
      {
        kind: 'dialect',
        at: '/$schema',
        message: `the JSON Schema dialect ${JSON.stringify(declared)} is not supported (supported: ${SUPPORTED_SCHEMA_DIALECTS.join(', ')}; without $schema, 2020-12)`,
      },
    ];
  }
  // Resources a $ref may point at, by absolute URI without fragment, and anchors.
  const resources = new Map<string, unknown>();
  const anchors = new Set<string>();
  const refs: Array<{ ref: string; base: string; at: string }> = [];
  let count = 0;
  let stopped = false;

  const walk = (node: unknown, at: string, depth: number, base: string): void => {
    if (stopped) return;
    if (typeof node === 'boolean') return;
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      problems.push({ kind: 'invalid', at, message: 'a subschema must be an object or a boolean' });
      return;
    }
    if (++count > maxSubschemas) {
      problems.push({ kind: 'too-large', at, message: `the schema has more than ${maxSubschemas} subschemas` });
      stopped = true;
      return;
    }
    if (depth > maxDepth) {
      problems.push({ kind: 'too-deep', at, message: `the schema nests subschemas more than ${maxDepth} deep` });
      stopped = true;
      return;
    }
    const s = node as Record<string, unknown>;
    const idKey = dialect === '4' ? 'id' : '$id';
    if (typeof s[idKey] === 'string') {
      const resolved = resolveUri(s[idKey], base);
      if (resolved === undefined) problems.push({ kind: 'invalid', at: `${at}/${idKey}`, message: `${idKey} is not a valid URI reference` });
      else {
        base = withoutFragment(resolved);
        resources.set(base, s);
      }
    }
    if (typeof s.$anchor === 'string') anchors.add(`${base}#${s.$anchor}`);
    if (typeof s.$dynamicAnchor === 'string') anchors.add(`${base}#${s.$dynamicAnchor}`);
    for (const key of ['$ref', '$dynamicRef', '$recursiveRef']) {
      if (s[key] === undefined) continue;
      if (typeof s[key] !== 'string') problems.push({ kind: 'invalid', at: `${at}/${key}`, message: `${key} must be a string` });
      else refs.push({ ref: s[key], base, at: `${at}/${key}` });
    }
    // The validator ignores these (it would accept anything there): refused rather than silently permissive.
    if (typeof s.$dynamicRef === 'string') {
      problems.push({ kind: 'invalid', at: `${at}/$dynamicRef`, message: '$dynamicRef is not supported (it would not be checked); use $ref to a schema under $defs' });
    }
    if (typeof s.$recursiveRef === 'string' && s.$recursiveRef !== '#') {
      problems.push({ kind: 'invalid', at: `${at}/$recursiveRef`, message: '$recursiveRef is only supported as "#" (anything else would not be checked); use $ref' });
    }
    checkKeywords(s, at, dialect, problems);
    const child = (value: unknown, path: string) => walk(value, path, depth + 1, base);
    for (const key of ONE_SCHEMA) if (key in s) child(s[key], `${at}/${key}`);
    for (const key of SCHEMA_MAP) {
      const map = s[key];
      if (map === undefined) continue;
      if (map === null || typeof map !== 'object' || Array.isArray(map)) {
        problems.push({ kind: 'invalid', at: `${at}/${key}`, message: `${key} must be an object of schemas` });
        continue;
      }
      for (const [name, value] of Object.entries(map)) child(value, `${at}/${key}/${escapePointer(name)}`);
    }
    for (const key of SCHEMA_LIST) {
      const list = s[key];
      if (list === undefined) continue;
      if (!Array.isArray(list) || list.length === 0) {
        problems.push({ kind: 'invalid', at: `${at}/${key}`, message: `${key} must be a non-empty array of schemas` });
        continue;
      }
      list.forEach((value, i) => child(value, `${at}/${key}/${i}`));
    }
    if ('items' in s) {
      if (Array.isArray(s.items) && dialect !== '2020-12') s.items.forEach((value, i) => child(value, `${at}/items/${i}`));
      else if (Array.isArray(s.items)) problems.push({ kind: 'invalid', at: `${at}/items`, message: 'items must be a schema in 2020-12 (an array of schemas is prefixItems)' });
      else child(s.items, `${at}/items`);
    }
    if (dialect === '7' || dialect === '4') {
      const deps = s.dependencies;
      if (deps !== null && typeof deps === 'object' && !Array.isArray(deps)) {
        for (const [name, value] of Object.entries(deps)) if (!Array.isArray(value)) child(value, `${at}/dependencies/${escapePointer(name)}`);
      }
    }
  };

  const root = 'mcp-actors://schema/root';
  resources.set(root, schema);
  walk(schema, '', 0, root);
  if (!stopped) {
    for (const { ref, base, at } of refs) {
      const problem = unresolved(ref, base, at, resources, anchors);
      if (problem !== undefined) problems.push({ kind: 'unresolved-ref', at, message: problem });
    }
  }
  return problems.slice(0, 20);
}

/** One line naming the problems, for an error message. */
export function describeSchemaProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.at === '' ? '(root)' : p.at}: ${p.message}`).join('; ');
}

function checkKeywords(s: Record<string, unknown>, at: string, dialect: SchemaDraft, problems: SchemaProblem[]): void {
  const bad = (key: string, message: string) => problems.push({ kind: 'invalid', at: `${at}/${key}`, message });
  if ('type' in s) {
    const t = s.type;
    const names = Array.isArray(t) ? t : [t];
    if (names.length === 0 || names.some((n) => typeof n !== 'string' || !TYPES.has(n))) bad('type', `type must be one of ${[...TYPES].join(', ')}, or an array of them`);
  }
  if ('required' in s && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string'))) {
    // draft-03's boolean `required` is not a dialect we support.
    bad('required', 'required must be an array of property names');
  }
  if ('enum' in s && !Array.isArray(s.enum)) bad('enum', 'enum must be an array');
  for (const key of NUMBERS) if (key in s && typeof s[key] !== 'number') bad(key, `${key} must be a number`);
  if ('multipleOf' in s && typeof s.multipleOf === 'number' && !(s.multipleOf > 0)) bad('multipleOf', 'multipleOf must be greater than 0');
  for (const key of ['exclusiveMaximum', 'exclusiveMinimum']) {
    if (!(key in s)) continue;
    if (dialect === '4' ? typeof s[key] !== 'boolean' : typeof s[key] !== 'number') bad(key, `${key} must be a ${dialect === '4' ? 'boolean in draft-04' : 'number'}`);
  }
  for (const key of COUNTS) {
    if (key in s && !(typeof s[key] === 'number' && Number.isInteger(s[key]) && (s[key] as number) >= 0)) bad(key, `${key} must be a non-negative integer`);
  }
  if ('uniqueItems' in s && typeof s.uniqueItems !== 'boolean') bad('uniqueItems', 'uniqueItems must be a boolean');
  if ('pattern' in s) {
    if (typeof s.pattern !== 'string') bad('pattern', 'pattern must be a string');
    else if (!compiles(s.pattern)) bad('pattern', `pattern ${JSON.stringify(s.pattern.slice(0, 60))} is not a valid regular expression`);
  }
  if (s.patternProperties !== null && typeof s.patternProperties === 'object' && !Array.isArray(s.patternProperties)) {
    for (const p of Object.keys(s.patternProperties)) if (!compiles(p)) bad(`patternProperties/${escapePointer(p)}`, `${JSON.stringify(p.slice(0, 60))} is not a valid regular expression`);
  }
  if ('dependentRequired' in s) {
    const d = s.dependentRequired;
    const ok = d !== null && typeof d === 'object' && !Array.isArray(d) && Object.values(d).every((v) => Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (!ok) bad('dependentRequired', 'dependentRequired must map property names to arrays of property names');
  }
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `ref` (the value of `$ref`, `$dynamicRef` or `$recursiveRef` at `at`) does not resolve
 * inside the schema, or undefined when it does. Nothing is fetched.
 */
function unresolved(ref: string, base: string, at: string, resources: Map<string, unknown>, anchors: Set<string>): string | undefined {
  const key = at.slice(at.lastIndexOf('/') + 1);
  const uri = resolveUri(ref, base);
  if (uri === undefined) return `${key} ${JSON.stringify(ref)} is not a valid URI reference`;
  const doc = withoutFragment(uri);
  const target = resources.get(doc);
  if (target === undefined) {
    return `${key} ${JSON.stringify(ref)} points outside the schema; MCP implementations never fetch a $ref, so inline the referenced schema (under $defs) instead`;
  }
  const hash = uri.length > doc.length ? decodeURIComponent(uri.slice(doc.length + 1)) : '';
  if (hash === '') return undefined;
  if (!hash.startsWith('/')) return anchors.has(`${doc}#${hash}`) ? undefined : `${key} ${JSON.stringify(ref)} names an anchor the schema does not define`;
  let node: unknown = target;
  for (const raw of hash.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) {
      return `${key} ${JSON.stringify(ref)} points at nothing in the schema`;
    }
    node = (node as Record<string, unknown>)[key];
  }
  return undefined;
}

function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function withoutFragment(uri: string): string {
  const i = uri.indexOf('#');
  return i < 0 ? uri : uri.slice(0, i);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
