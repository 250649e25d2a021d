/**
 * Schemas for tool inputs and outputs and prompt arguments: either a JSON Schema object (sent
 * verbatim and validated with @cfworker/json-schema, which needs no `eval`), or any Standard
 * Schema validator (zod 4, valibot, arktype, …: validated by its own `~standard.validate` and
 * converted to JSON Schema for the wire).
 *
 * Dialect: JSON Schema 2020-12 unless `$schema` names another draft (draft-07, draft-04,
 * 2019-09), as 2025-11-25 specifies. A JSON Schema given by the server's author is checked at
 * registration against MCP's schema rules (`lib/protocol/json-schema-rules.ts`: a supported
 * dialect, valid keywords, no `$ref` outside the schema, bounded size), so a tool never goes out
 * with a schema that clients cannot use.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage
 * @see https://standardschema.dev
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { describeSchemaProblems, schemaDialect, schemaProblems } from '../protocol/json-schema-rules.js';
import type { ObjectJsonSchema } from '../protocol/schema/tools.js';

/** The Standard Schema interface (v1), as validators implement it. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: converters to JSON Schema, when the library has them. */
    readonly jsonSchema?: {
      readonly input: (options: { target: string }) => Record<string, unknown>;
      readonly output: (options: { target: string }) => Record<string, unknown>;
    };
  };
}

/** The outcome of a Standard Schema validation. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

/**
 * An object schema written as its properties, each a Standard Schema validator: the official
 * SDK's "raw shape" (`{ a: z.number(), b: z.number().optional() }`). A property whose validator
 * accepts `undefined` is optional.
 */
export type RawShape = { readonly [key: string]: StandardSchemaV1<any, any> };

/** A JSON Schema object (root `type: "object"`), a Standard Schema validator, or a {@link RawShape}. */
export type SchemaInput = ObjectJsonSchema | StandardSchemaV1<any, any> | RawShape;

type OutputOf<S> = S extends StandardSchemaV1<any, infer O> ? O : never;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
/** The value a {@link RawShape} validates to: optional keys where the validator accepts `undefined`. */
export type InferShape<S extends RawShape> = Flatten<
  { [K in keyof S as undefined extends OutputOf<S[K]> ? never : K]: OutputOf<S[K]> } & {
    [K in keyof S as undefined extends OutputOf<S[K]> ? K : never]?: OutputOf<S[K]>;
  }
>;

/** The value type a schema validates to: the validator's output type, or a plain object for JSON Schema. */
export type InferSchema<S> = S extends StandardSchemaV1<any, infer O>
  ? O
  : S extends ObjectJsonSchema
    ? { [key: string]: unknown }
    : S extends RawShape
      ? InferShape<S>
      : { [key: string]: unknown };

/** True for a Standard Schema validator. */
export function isStandardSchema(x: unknown): x is StandardSchemaV1 {
  if (x === null || (typeof x !== 'object' && typeof x !== 'function')) return false;
  const s = (x as { '~standard'?: { validate?: unknown; version?: unknown } })['~standard'];
  return s !== undefined && s !== null && typeof s === 'object' && s.version === 1 && typeof s.validate === 'function';
}

/** True for a {@link RawShape}: a plain object (not a JSON Schema) whose every value is a Standard Schema. */
export function isRawShape(x: unknown): x is RawShape {
  if (x === null || typeof x !== 'object' || Array.isArray(x) || isStandardSchema(x)) return false;
  const values = Object.values(x);
  if (values.length === 0) return !('type' in x);
  return values.every(isStandardSchema);
}

/**
 * A {@link RawShape} as one Standard Schema: each property validated by its own validator (issues
 * keep their paths), unknown properties dropped (as zod's `object` does), and a JSON Schema made
 * of the properties' converted schemas.
 */
export function shapeSchema(shape: RawShape): StandardSchemaV1<Record<string, unknown>, Record<string, unknown>> {
  const entries = Object.entries(shape);
  const optional = (field: StandardSchemaV1): boolean => {
    const r = field['~standard'].validate(undefined);
    return !(r instanceof Promise) && r.issues === undefined;
  };
  const toJson = (io: 'input' | 'output'): Record<string, unknown> => {
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const [key, field] of entries) {
      const json = convertSync(field, io);
      if (json === undefined) {
        throw new TypeError(`property "${key}" is a "${field['~standard'].vendor}" validator without a JSON Schema converter; use zod 4 or a Standard JSON Schema library`);
      }
      const { $schema: _drop, ...rest } = json;
      properties[key] = rest;
      if (!optional(field)) required.push(key);
    }
    return { type: 'object', properties, ...(required.length > 0 && { required }) };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-actors-shape',
      validate: async (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return { issues: [{ message: 'expected an object' }] };
        const out: Record<string, unknown> = {};
        const issues: Array<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> = [];
        for (const [key, field] of entries) {
          const r = await field['~standard'].validate((value as Record<string, unknown>)[key]);
          if (r.issues !== undefined) for (const issue of r.issues) issues.push({ message: issue.message, path: [key, ...(issue.path ?? [])] });
          else if (r.value !== undefined) out[key] = r.value;
        }
        return issues.length > 0 ? { issues } : { value: out };
      },
      jsonSchema: { input: () => toJson('input'), output: () => toJson('output') },
    },
  };
}

/** The outcome of {@link CompiledSchema.validate}. */
export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Which cfworker draft a JSON Schema's `$schema` asks for (2020-12 when absent). A dialect we do
 * not support never gets this far: registration refuses it.
 */
export function draftOf(schema: { $schema?: unknown }): SchemaDraft {
  return schemaDialect(schema) ?? '2020-12';
}

/**
 * A schema ready to validate, with its JSON Schema wire form. Conversion of a Standard Schema
 * is synchronous when the library offers `~standard.jsonSchema` or a `toJSONSchema()` method;
 * otherwise (older zod) it is imported on demand, and {@link ready} resolves once done.
 */
export class CompiledSchema {
  private json: ObjectJsonSchema | undefined;
  private validator: Validator | undefined;
  private conversionError: Error | undefined;
  /** Resolves when {@link jsonSchema} is known. Never rejects (see {@link jsonSchema}). */
  readonly ready: Promise<void>;

  /** What is validated: the source, or the one Standard Schema made of a raw shape. */
  private readonly schema: ObjectJsonSchema | StandardSchemaV1<any, any>;

  constructor(
    /** The schema as given. */
    readonly source: SchemaInput,
    private readonly io: 'input' | 'output',
    /** For error messages: "input schema of tool "x"". */
    private readonly what: string,
  ) {
    const schema = (this.schema = isRawShape(source) ? shapeSchema(source) : source);
    if (isStandardSchema(schema)) {
      const converted = convertSync(schema, io);
      if (converted) {
        this.json = checkObjectSchema(converted, what);
        this.ready = Promise.resolve();
      } else if (schema['~standard'].vendor !== 'zod') {
        throw new TypeError(
          `The ${what} is a "${schema['~standard'].vendor}" validator without a JSON Schema converter (~standard.jsonSchema); pass a JSON Schema object instead`,
        );
      } else {
        this.ready = convertAsync(schema, io).then(
          (json) => {
            try {
              this.json = checkObjectSchema(json, what);
            } catch (e) {
              this.conversionError = e as Error;
            }
          },
          (e: unknown) => {
            this.conversionError = new Error(`Cannot convert the ${what} to JSON Schema: ${(e as Error)?.message ?? String(e)}`);
          },
        );
      }
    } else {
      // A copy: the registry freezes what it holds, and the caller's object stays theirs.
      this.json = checkObjectSchema(structuredClone(schema) as Record<string, unknown>, what);
      const problems = schemaProblems(this.json);
      if (problems.length > 0) throw new TypeError(`The ${what} is not a usable JSON Schema: ${describeSchemaProblems(problems)}`);
      this.ready = Promise.resolve();
    }
  }

  /** The JSON Schema for the wire. Throws when a Standard Schema could not be converted. */
  get jsonSchema(): ObjectJsonSchema {
    if (this.conversionError) throw this.conversionError;
    if (!this.json) throw new Error(`The ${this.what} is still being converted; await ready first`);
    return this.json;
  }

  /**
   * Validate `value`: with the Standard Schema's own validator, or the JSON Schema. At once when
   * the validator answers at once (nearly always): a promise and an await per tool call cost more
   * than the check. A validator that throws rejects, as an async one would.
   */
  validate(value: unknown): Validation | Promise<Validation> {
    if (isStandardSchema(this.schema)) {
      let result: ReturnType<StandardSchemaV1['~standard']['validate']>;
      try {
        result = this.schema['~standard'].validate(value);
      } catch (e) {
        return Promise.reject(e as Error);
      }
      // (Any thenable is waited for, as `await` did.)
      return typeof (result as { then?: unknown }).then === 'function' ? Promise.resolve(result).then(standardValidation) : standardValidation(result as Awaited<typeof result>);
    }
    return this.validateJson(value);
  }

  private validateJson(value: unknown): Validation {
    const json = this.json!;
    this.validator ??= new Validator(json as Schema, draftOf(json), false);
    const result = this.validator.validate(value);
    return result.valid ? { ok: true, value } : { ok: false, message: formatJsonSchemaErrors(result.errors) };
  }
}

/** A Standard Schema validator's result as a {@link Validation}. */
function standardValidation(result: Awaited<ReturnType<StandardSchemaV1['~standard']['validate']>>): Validation {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, message: result.issues.map(formatIssue).join('; ') || 'invalid' };
}

function formatIssue(issue: { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined }): string {
  const path = (issue.path ?? []).map((p) => String(typeof p === 'object' && p !== null ? p.key : p));
  return path.length > 0 ? `${path.join('.')}: ${issue.message}` : issue.message;
}

/**
 * cfworker reports every level of a failure ("property a does not match", then why). Keep the
 * innermost ones, which say what is actually wrong.
 */
export function formatJsonSchemaErrors(errors: readonly OutputUnit[]): string {
  const leaves = errors.filter(
    (e) => !errors.some((o) => o !== e && o.keywordLocation.startsWith(e.keywordLocation + '/')) && !(e.keyword === 'false' && errors.length > 1),
  );
  const shown = (leaves.length > 0 ? leaves : errors).map((e) => {
    const at = e.instanceLocation.replace(/^#\/?/, '').replace(/\//g, '.');
    return at ? `${at}: ${e.error}` : e.error;
  });
  return [...new Set(shown)].join('; ') || 'does not match the schema';
}

function checkObjectSchema(json: Record<string, unknown>, what: string): ObjectJsonSchema {
  if (json === null || typeof json !== 'object' || Array.isArray(json) || json.type !== 'object') {
    throw new TypeError(`The ${what} must be a JSON Schema object with type "object" at its root (got ${JSON.stringify(json?.type)})`);
  }
  return json as ObjectJsonSchema;
}

/** Convert with what the validator object itself offers, without importing anything. */
function convertSync(schema: StandardSchemaV1, io: 'input' | 'output'): Record<string, unknown> | undefined {
  const std = schema['~standard'];
  if (std.jsonSchema && typeof std.jsonSchema[io] === 'function') {
    return std.jsonSchema[io]({ target: 'draft-2020-12' });
  }
  // zod 4 schemas carry a `toJSONSchema` method.
  const own = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  if (typeof own === 'function') return (own as (o: object) => Record<string, unknown>).call(schema, { io });
  return undefined;
}

/**
 * `import(name)` that bundlers leave alone (they resolve string literals, even through a const):
 * zod is the caller's dependency, found at run time, never bundled into theirs by us.
 */
const importAtRunTime = (name: string): Promise<unknown> => import(name);

/** Last resort for zod: its converter, imported on demand (zod is the caller's dependency, not ours). */
async function convertAsync(schema: StandardSchemaV1, io: 'input' | 'output'): Promise<Record<string, unknown>> {
  const mod = (await importAtRunTime('zod')) as { toJSONSchema?: (s: unknown, o: object) => Record<string, unknown>; z?: { toJSONSchema?: (s: unknown, o: object) => Record<string, unknown> } };
  const toJSONSchema = mod.toJSONSchema ?? mod.z?.toJSONSchema;
  if (!toJSONSchema) throw new Error('this zod version has no toJSONSchema (zod 4 or newer is needed)');
  return toJSONSchema(schema, { io });
}
