import { expect } from 'chai';
import { runChain, type Interceptor } from '../../../lib/server-features/interceptors/server-chain.js';
import { McpError } from '../../../lib/errors.js';

const req = (params = { a: 1 }, signal?: AbortSignal) => ({ method: 'tools/call', params, caller: { era: 'modern' as const }, signal });

describe('interceptors: the chain', () => {
  it('runs stages in registration order around the handler', async () => {
    const seen: string[] = [];
    const mk = (n: string): Interceptor => async (_r, next) => { seen.push(`in ${n}`); const out = await next(); seen.push(`out ${n}`); return out; };
    await runChain([mk('a'), mk('b')], req(), async () => { seen.push('handler'); return {}; });
    expect(seen).to.deep.equal(['in a', 'in b', 'handler', 'out b', 'out a']);
  });
  it('rewrites params for later stages and rewrites the result', async () => {
    const out = await runChain([async (r, next) => ({ ...(await next({ ...r.params, b: 2 })), wrapped: true })], req(), async (p) => ({ got: p ?? null }));
    expect(out).to.deep.equal({ got: { a: 1, b: 2 }, wrapped: true });
  });
  it('short-circuits with a result: the handler never runs', async () => {
    let ran = false;
    const out = await runChain([async () => ({ cached: true })], req(), async () => { ran = true; return {}; });
    expect(out).to.deep.equal({ cached: true });
    expect(ran).to.equal(false);
  });
  it('passes an McpError through and turns any other throw into -32603 naming the stage', async () => {
    const e1 = await runChain([async () => { throw new McpError(-32001, 'no'); }], req(), async () => ({})).catch((e: unknown) => e);
    expect((e1 as McpError).code).to.equal(-32001);
    const boom: Interceptor = function quota() { throw new Error('boom'); };
    const e2 = await runChain([boom], req(), async () => ({})).catch((e: unknown) => e);
    expect((e2 as McpError).code).to.equal(-32603);
    expect((e2 as McpError).message).to.contain('"quota"').and.contain('boom');
  });
  it('ends a stage that never resolves when the request is cancelled', async () => {
    const ac = new AbortController();
    const p = runChain([() => new Promise(() => {})], req({ a: 1 }, ac.signal), async () => ({}));
    ac.abort();
    const e = await p.catch((x: unknown) => x);
    expect(e).to.be.instanceOf(McpError);
    expect((e as McpError).message).to.contain('cancelled');
  });
});
