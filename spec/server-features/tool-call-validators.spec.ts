/**
 * A tool's Standard Schema validator may answer at once, with a promise, or with any thenable, or
 * throw; its handler may answer at once or later. The server waits only for what is a promise (a
 * plain answer goes on without an await), and every form must still reach the client as before.
 */
import { expect } from 'chai';
import type { StandardSchemaV1 } from '../../lib/server-features/json-schema.js';
import { connect, makeServer } from './helpers.js';

type Answer = { value: { n: number } } | { issues: { message: string; path: string[] }[] };
const check = (v: unknown): Answer =>
  typeof (v as { n?: unknown }).n === 'number' ? { value: v as { n: number } } : { issues: [{ message: 'n must be a number', path: ['n'] }] };

/** A handmade validator whose `validate` answers through `wrap`. */
function validator(wrap: (a: Answer) => unknown): StandardSchemaV1<{ n: number }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'handmade',
      validate: (v) => wrap(check(v)) as ReturnType<StandardSchemaV1<{ n: number }>['~standard']['validate']>,
      jsonSchema: {
        input: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
        output: () => ({ type: 'object' }),
      },
    },
  };
}

const forms: [string, (a: Answer) => unknown][] = [
  ['at once', (a) => a],
  ['with a promise', (a) => Promise.resolve(a)],
  // Not a native promise: waited for all the same, never read as an answer of its own.
  ['with a thenable', (a) => ({ then: (ok: (x: Answer) => void) => setImmediate(() => ok(a)) })],
];

describe('tools/call: validators and handlers that answer at once or later', () => {
  for (const [label, wrap] of forms) {
    it(`a validator answering ${label}: valid arguments reach the handler, invalid ones are a tool error`, async () => {
      const { mcp } = makeServer();
      mcp.registerTool('double', { inputSchema: validator(wrap) }, ({ n }) => String(n * 2));
      const { client } = await connect(mcp);
      const ok = (await client.request('tools/call', { name: 'double', arguments: { n: 21 } })) as any;
      expect(ok.content).to.deep.equal([{ type: 'text', text: '42' }]);
      const bad = (await client.request('tools/call', { name: 'double', arguments: { n: 'x' } })) as any;
      expect([bad.isError, bad.content[0].text]).to.deep.equal([true, 'Invalid arguments for tool "double": n: n must be a number']);
    });
  }

  it('a validator that throws fails the call with an error the client gets, and the server keeps serving', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('broken', { inputSchema: validator(() => { throw new Error('validator bug'); }) }, () => 'never');
    mcp.registerTool('fine', { inputSchema: validator((a) => a) }, () => 'still here');
    const { client } = await connect(mcp);
    const err = await client.request('tools/call', { name: 'broken', arguments: { n: 1 } }).then(() => undefined, (e: Error) => e);
    expect(err?.message).to.match(/validator bug/);
    const r = (await client.request('tools/call', { name: 'fine', arguments: { n: 1 } })) as any;
    expect(r.content[0].text).to.equal('still here');
  });

  it('a handler answering at once, with a promise or with a thenable: the same result; a handler that throws: a tool error', async () => {
    const { mcp } = makeServer();
    const n = { type: 'object', properties: {} } as const;
    mcp.registerTool('sync', { inputSchema: n }, () => 'a');
    mcp.registerTool('async', { inputSchema: n }, async () => 'a');
    mcp.registerTool('thenable', { inputSchema: n }, () => ({ then: (ok: (x: string) => void) => setImmediate(() => ok('a')) }) as unknown as string);
    mcp.registerTool('throws', { inputSchema: n }, () => {
      throw new Error('nope');
    });
    const { client } = await connect(mcp);
    for (const name of ['sync', 'async', 'thenable']) {
      const r = (await client.request('tools/call', { name, arguments: {} })) as any;
      expect(r.content, name).to.deep.equal([{ type: 'text', text: 'a' }]);
    }
    const t = (await client.request('tools/call', { name: 'throws', arguments: {} })) as any;
    expect([t.isError, t.content[0].text]).to.deep.equal([true, 'Tool "throws" failed: nope']);
  });
});
