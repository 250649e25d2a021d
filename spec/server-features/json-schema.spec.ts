import { expect } from 'chai';
import { z } from 'zod';
import { CompiledSchema, draftOf, isStandardSchema, type StandardSchemaV1 } from '../../lib/server-features/json-schema.js';
import { connect, makeServer } from './helpers.js';

describe('server features: schemas', () => {
  it('picks the dialect from $schema: 2020-12 by default, draft-07 and others when named', () => {
    expect(draftOf({})).to.equal('2020-12');
    expect(draftOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).to.equal('2020-12');
    expect(draftOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).to.equal('7');
    expect(draftOf({ $schema: 'http://json-schema.org/draft-04/schema#' })).to.equal('4');
    expect(draftOf({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).to.equal('2019-09');
  });

  it('2020-12 keywords work without $schema ($defs, prefixItems, dependentRequired)', async () => {
    const s = new CompiledSchema(
      {
        type: 'object',
        $defs: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
        properties: { p: { $ref: '#/$defs/pair' }, card: { type: 'string' }, cvv: { type: 'string' } },
        dependentRequired: { card: ['cvv'] },
      },
      'input',
      'test schema',
    );
    expect(await s.validate({ p: ['a', 1] })).to.deep.equal({ ok: true, value: { p: ['a', 1] } });
    const bad = await s.validate({ p: [1, 'a'] });
    expect(bad.ok).to.equal(false);
    expect((await s.validate({ card: '4111' })).ok).to.equal(false);
  });

  it('reports the innermost schema errors with their location', async () => {
    const s = new CompiledSchema(
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false },
      'input',
      'test schema',
    );
    const r = await s.validate({ a: 1, c: true });
    expect(r.ok).to.equal(false);
    const message = (r as { message: string }).message;
    expect(message).to.contain('a: Instance type "number" is invalid. Expected "string".');
    expect(message).to.contain('"b"');
    expect(message).to.contain('"c"');
    expect(message).to.not.contain('False boolean schema');
  });

  it('detects Standard Schema validators', () => {
    expect(isStandardSchema(z.string())).to.equal(true);
    expect(isStandardSchema({ type: 'object' })).to.equal(false);
    expect(isStandardSchema({ '~standard': { version: 2, validate: () => ({}) } })).to.equal(false);
    expect(isStandardSchema(null)).to.equal(false);
  });

  it('uses a validator’s Standard JSON Schema converter when it has one (any vendor)', async () => {
    const custom: StandardSchemaV1<{ n: number }> = {
      '~standard': {
        version: 1,
        vendor: 'handmade',
        validate: (v) => (typeof (v as { n?: unknown }).n === 'number' ? { value: v as { n: number } } : { issues: [{ message: 'n must be a number', path: ['n'] }] }),
        jsonSchema: {
          input: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
          output: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
        },
      },
    };
    const s = new CompiledSchema(custom, 'input', 'custom');
    expect(s.jsonSchema).to.deep.equal({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    expect(await s.validate({ n: 'x' })).to.deep.equal({ ok: false, message: 'n: n must be a number' });
  });

  it('refuses a non-zod validator without a converter at registration', () => {
    const bare: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'other', validate: (v) => ({ value: v }) } };
    const { mcp } = makeServer();
    expect(() => mcp.registerTool('t', { inputSchema: bare }, () => 'x')).to.throw(TypeError, /JSON Schema converter/);
  });

  it('a zod schema without conversion methods is converted through zod, imported on demand', async () => {
    const zs = z.object({ a: z.string() });
    const older = Object.create(zs, {
      toJSONSchema: { value: undefined },
      '~standard': { value: { version: 1, vendor: 'zod', validate: (v: unknown) => zs['~standard'].validate(v) } },
    }) as StandardSchemaV1;
    const { mcp } = makeServer();
    mcp.registerTool('t', { inputSchema: older }, () => 'x');
    const { client } = await connect(mcp);
    const { tools } = (await client.request('tools/list')) as any;
    expect(tools[0].inputSchema).to.deep.include({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    const r = (await client.request('tools/call', { name: 't', arguments: { a: 3 } })) as any;
    expect(r.isError).to.equal(true);
  });
});
