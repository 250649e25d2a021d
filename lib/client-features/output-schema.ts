/**
 * Validation of a tool's `structuredContent` against the `outputSchema` the server listed, with
 * an eval-free JSON Schema validator (`@cfworker/json-schema`). Schemas are used as listed
 * (`$schema`, `$defs`, `additionalProperties`...); the validator works on a private copy, so the
 * listed tool objects are never touched.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import { describeSchemaProblems, schemaDialect, schemaProblems } from '../protocol/json-schema-rules.js';
import type { Revision } from '../protocol/revisions.js';
import { OutputSchemaError, UnusableOutputSchemaError, type SchemaIssue } from './client-feature-errors.js';

export { schemaDialect } from '../protocol/json-schema-rules.js';

/** Compiled validators, one per schema object (a re-listed tool brings a new object). */
export class OutputValidators {
  private readonly cache = new WeakMap<object, Validator | string | null>();

  /**
   * Throw {@link OutputSchemaError} when `result` (a `tools/call` result) does not carry
   * `structuredContent` matching `schema`, and {@link UnusableOutputSchemaError} when the schema
   * breaks MCP's schema rules (a `$ref` outside it, which is never fetched, invalid keywords,
   * beyond the bounds): such a schema is not treated as permissive. Error results
   * (`isError: true`) are not checked. Returns false when the schema's dialect is not one we
   * support (nothing was checked; the caller warns).
   */
  check(tool: string, schema: object, result: Record<string, unknown>, revision: Revision | undefined): boolean {
    if (result.isError === true) return true;
    const validator = this.validatorFor(schema, revision);
    if (validator === null) return false;
    if (typeof validator === 'string') throw new UnusableOutputSchemaError(tool, validator, result);
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

  /** A validator, null for an unsupported dialect, or what makes the schema unusable. */
  private validatorFor(schema: object, revision: Revision | undefined): Validator | string | null {
    let v = this.cache.get(schema);
    if (v === undefined) {
      const dialect = schemaDialect(schema, revision);
      const problems = dialect === undefined ? [] : schemaProblems(schema, revision);
      if (dialect === undefined) v = null;
      else if (problems.length > 0) v = describeSchemaProblems(problems);
      // The validator marks the schema objects it walks: give it its own copy.
      else v = new Validator(structuredClone(schema) as Schema, dialect, false);
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
