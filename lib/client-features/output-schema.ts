/**
 * Validation of a tool's `structuredContent` against the `outputSchema` the server listed, with
 * an eval-free JSON Schema validator (`@cfworker/json-schema`). Schemas are used as listed
 * (`$schema`, `$defs`, `additionalProperties`...); the validator works on a private copy, so the
 * listed tool objects are never touched.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema
 */
import { Validator, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { allows, type Revision } from '../protocol/revisions.js';
import { OutputSchemaError, type SchemaIssue } from './errors.js';

/**
 * The JSON Schema dialect of `schema`: its `$schema` when it names one the validator knows,
 * otherwise (no `$schema`) 2020-12 in revisions where that is the default, draft-07 before.
 * Undefined for a dialect the validator does not know.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage
 */
export function schemaDialect(schema: object, revision: Revision | undefined): SchemaDraft | undefined {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return revision === undefined || allows(revision, 'jsonSchema2020Default') ? '2020-12' : '7';
  if (typeof declared !== 'string') return undefined;
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('draft-04')) return '4';
  return undefined;
}

/** Compiled validators, one per schema object (a re-listed tool brings a new object). */
export class OutputValidators {
  private readonly cache = new WeakMap<object, Validator | null>();

  /**
   * Throw {@link OutputSchemaError} when `result` (a `tools/call` result) does not carry
   * `structuredContent` matching `schema`. Error results (`isError: true`) are not checked.
   * Returns false when the schema's dialect is unknown (nothing was checked).
   */
  check(tool: string, schema: object, result: Record<string, unknown>, revision: Revision | undefined): boolean {
    if (result.isError === true) return true;
    const validator = this.validatorFor(schema, revision);
    if (validator === null) return false;
    const structured = result.structuredContent;
    if (structured === undefined || structured === null || typeof structured !== 'object' || Array.isArray(structured)) {
      throw new OutputSchemaError(
        tool,
        [{ instanceLocation: '#', keyword: 'structuredContent', message: structured === undefined ? 'is missing (the tool has an outputSchema)' : 'must be an object' }],
        result,
      );
    }
    const outcome = validator.validate(structured);
    if (outcome.valid) return true;
    throw new OutputSchemaError(tool, issuesOf(outcome.errors), result);
  }

  private validatorFor(schema: object, revision: Revision | undefined): Validator | null {
    let v = this.cache.get(schema);
    if (v === undefined) {
      const dialect = schemaDialect(schema, revision);
      // The validator marks the schema objects it walks: give it its own copy.
      v = dialect === undefined ? null : new Validator(structuredClone(schema) as Schema, dialect, false);
      this.cache.set(schema, v);
    }
    return v;
  }
}

function issuesOf(errors: { keyword: string; instanceLocation: string; error: string }[]): SchemaIssue[] {
  // The validator reports the failing leaf keywords and then each enclosing one; the leaves say it best.
  const leaves = errors.filter((e) => !['properties', 'allOf', 'anyOf', 'oneOf', '$ref', 'items', 'additionalProperties'].includes(e.keyword) || errors.length === 1);
  return (leaves.length ? leaves : errors).slice(0, 10).map((e) => ({
    instanceLocation: e.instanceLocation,
    keyword: e.keyword,
    message: e.keyword === 'false' ? 'is not allowed here (additionalProperties: false, or a false schema)' : e.error.replace(/\.$/, ''),
  }));
}
