// BASE-085: implementors are RECOMMENDED to use JSON Schema 2020-12. The schemas this library writes
// for a server's author (converted from zod, from a raw shape, from any Standard JSON Schema
// validator) go out as 2020-12: the dialect a client reads in tools/list is 2020-12, whichever way
// the tool was declared.
import { expect } from 'chai';
import { z } from 'zod';
import { schemaDialect } from '../../lib/protocol/json-schema-rules.js';
import type { StandardSchemaV1 } from '../../lib/server-features/json-schema.js';
import { connect, makeServer } from './helpers.js';

/** A validator whose converter answers in whatever dialect it is asked for, and notes the ask. */
function anyDialect(asked: string[]): StandardSchemaV1<{ n: number }> {
  const convert = ({ target }: { target: string }) => {
    asked.push(target);
    const $schema = target === 'draft-2020-12' ? 'https://json-schema.org/draft/2020-12/schema' : 'http://json-schema.org/draft-07/schema#';
    return { $schema, type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'any-dialect',
      validate: (v) => (typeof (v as { n?: unknown }).n === 'number' ? { value: v as { n: number } } : { issues: [{ message: 'n must be a number' }] }),
      jsonSchema: { input: convert, output: convert },
    },
  };
}

describe('server features: the JSON Schema dialect the library writes', () => {
  it('[BASE-085] tools declared with zod, a raw shape or a Standard JSON Schema converter list 2020-12 input and output schemas', async () => {
    const asked: string[] = [];
    const { mcp } = makeServer();
    mcp.registerTool('zod', { inputSchema: z.object({ a: z.string() }), outputSchema: z.object({ ok: z.boolean() }) }, () => ({ structuredContent: { ok: true } }));
    mcp.registerTool('shape', { inputSchema: { a: z.string(), b: z.number().optional() } }, () => 'x');
    mcp.registerTool('converter', { inputSchema: anyDialect(asked), outputSchema: anyDialect(asked) }, () => ({ structuredContent: { n: 1 } }));
    const { client } = await connect(mcp);
    const { tools } = (await client.request('tools/list')) as { tools: Array<{ name: string; inputSchema: object; outputSchema?: object }> };
    const dialects = Object.fromEntries(tools.map((t) => [t.name, [schemaDialect(t.inputSchema), t.outputSchema && schemaDialect(t.outputSchema)]]));
    expect(dialects).to.deep.equal({ zod: ['2020-12', '2020-12'], shape: ['2020-12', undefined], converter: ['2020-12', '2020-12'] });
    expect(asked.length).to.be.greaterThan(0);
    expect(new Set(asked)).to.deep.equal(new Set(['draft-2020-12']));
    // and what it wrote validates as 2020-12 on the way in
    const bad = (await client.request('tools/call', { name: 'converter', arguments: { n: 'one' } })) as { isError?: boolean };
    expect(bad.isError).to.equal(true);
  });
});
