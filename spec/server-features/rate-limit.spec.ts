import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { RateLimiter } from '../../lib/server-features/rate-limit.js';
import { connect, makeServer, rejection, settle } from './helpers.js';

describe('server features: rate limits', () => {
  it('a token bucket per key, refilled evenly on the clock', () => {
    const clock = new ManualClock();
    const r = new RateLimiter(clock, { limit: 2, windowMs: 1000 });
    const a = {};
    const b = {};
    expect([r.take(a), r.take(a), r.take(a)]).to.deep.equal([true, true, false]);
    expect(r.take(b)).to.equal(true);
    expect(r.retryAfter(a)).to.equal(500);
    clock.advance(500);
    expect([r.take(a), r.take(a)]).to.deep.equal([true, false]);
    expect(() => new RateLimiter(clock, { limit: 0, windowMs: 1 })).to.throw(TypeError);
  });

  it('[TOOL-014] tool calls over the limit get an isError result saying when to retry; other sessions are unaffected', async () => {
    const { mcp, clock } = makeServer({ rateLimits: { toolCalls: { limit: 2, windowMs: 1000 } } });
    let runs = 0;
    mcp.registerTool('t', {}, () => String(++runs));
    const one = await connect(mcp);
    const two = await connect(mcp);
    await one.client.request('tools/call', { name: 't' });
    await one.client.request('tools/call', { name: 't' });
    const limited = (await one.client.request('tools/call', { name: 't' })) as any;
    expect(limited.isError).to.equal(true);
    expect(limited.content[0].text).to.equal('Rate limit exceeded for tool calls; retry in 500 ms');
    expect(((await two.client.request('tools/call', { name: 't' })) as any).isError).to.equal(undefined);
    clock.advance(500);
    expect(((await one.client.request('tools/call', { name: 't' })) as any).isError).to.equal(undefined);
    expect(runs).to.equal(4);
  });

  it('[COMPL-008] [COMPL-014] completions over the limit are -32603', async () => {
    const { mcp } = makeServer({ rateLimits: { completions: { limit: 1, windowMs: 1000 } } });
    mcp.registerPrompt('p', { arguments: [{ name: 'a', complete: () => ['x'] }] }, () => 'x');
    const { client } = await connect(mcp);
    const params = { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } };
    await client.request('completion/complete', params);
    const err = await rejection(client.request('completion/complete', params));
    expect(err.code).to.equal(-32603);
    expect(err.message).to.contain('Rate limit exceeded');
  });

  it('[LOG-004] [LOG-011] log messages over the limit are dropped', async () => {
    const { mcp } = makeServer({ rateLimits: { logMessages: { limit: 3, windowMs: 1000 } } });
    const { notes } = await connect(mcp);
    for (let i = 0; i < 10; i++) mcp.log('info', `m${i}`);
    await settle();
    expect(notes.map((n) => n.params.data)).to.deep.equal(['m0', 'm1', 'm2']);
  });
});
