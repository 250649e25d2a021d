import { expect } from 'chai';
import { completionResult } from '../../lib/server-features/completion.js';
import { RawPeer, initializeRaw } from '../helpers/raw-peer.js';
import { connect, makeServer, rejection } from './helpers.js';

const LANGUAGES = ['python', 'pytorch', 'pyside', 'rust', 'ruby'];

function serverWithReview() {
  const made = makeServer();
  made.mcp.registerPrompt(
    'code_review',
    {
      arguments: [
        { name: 'language', complete: (value) => LANGUAGES.filter((l) => l.startsWith(value)) },
        { name: 'framework', complete: (value, context) => (context.arguments.language === 'python' ? ['flask', 'fastapi'] : ['axum']).filter((f) => f.startsWith(value)) },
        { name: 'code', required: true },
      ],
    },
    () => 'x',
  );
  return made;
}

describe('server features: completion', () => {
  it('[COMPL-001] declares completions once a prompt argument can be completed', async () => {
    const plain = makeServer();
    plain.mcp.registerPrompt('p', { arguments: [{ name: 'a' }] }, () => 'x');
    expect((await connect(plain.mcp)).client.serverCapabilities).to.not.have.property('completions');
    const { mcp } = serverWithReview();
    expect((await connect(mcp)).client.serverCapabilities).to.deep.include({ completions: {} });
  });

  it('completes prompt arguments, with total and hasMore', async () => {
    const { mcp } = serverWithReview();
    const { client } = await connect(mcp);
    expect(
      await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 'py' } }),
    ).to.deep.equal({ completion: { values: ['python', 'pytorch', 'pyside'], total: 3, hasMore: false } });
    // An argument without a callback completes to nothing.
    expect(await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'code', value: '' } })).to.deep.equal({
      completion: { values: [], total: 0, hasMore: false },
    });
  });

  it('passes context.arguments through to the callback', async () => {
    const { mcp } = serverWithReview();
    const { client } = await connect(mcp);
    const r = await client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'code_review' },
      argument: { name: 'framework', value: 'f' },
      context: { arguments: { language: 'python' } },
    });
    expect(r).to.deep.equal({ completion: { values: ['flask', 'fastapi'], total: 2, hasMore: false } });
  });

  it('sends at most 100 values, with the full total and hasMore', async () => {
    const { mcp } = makeServer();
    const many = Array.from({ length: 250 }, (_, i) => `v${i}`);
    mcp.registerPrompt('p', { arguments: [{ name: 'a' }], complete: { a: () => many } }, () => 'x');
    mcp.registerPrompt('q', { arguments: [{ name: 'a' }], complete: { a: () => ({ values: ['x', 'y'], total: 40, hasMore: true }) } }, () => 'x');
    const { client } = await connect(mcp);
    const r = (await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } })) as any;
    expect(r.completion.values).to.have.length(100);
    expect(r.completion.values[99]).to.equal('v99');
    expect(r.completion.total).to.equal(250);
    expect(r.completion.hasMore).to.equal(true);
    expect(await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'q' }, argument: { name: 'a', value: '' } })).to.deep.equal({
      completion: { values: ['x', 'y'], total: 40, hasMore: true },
    });
    expect(completionResult({ values: ['a'], total: 0 })).to.deep.equal({ values: ['a'], total: 1, hasMore: false });
  });

  it('[COMPL-003] [COMPL-004] [COMPL-009] [COMPL-013] bad params are -32602: unknown prompt, unknown argument, missing argument, bad ref', async () => {
    const { mcp } = serverWithReview();
    const { client } = await connect(mcp);
    const cases: [object, string][] = [
      [{ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }, 'Unknown prompt: nope'],
      [{ ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'nope', value: '' } }, 'has no argument "nope"'],
      [{ ref: { type: 'ref/prompt', name: 'code_review' } }, '"argument"'],
      [{ ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 3 } }, '"argument"'],
      [{ ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } }, 'unknown ref type'],
      [{ argument: { name: 'a', value: '' } }, '"ref"'],
      [{ ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: '' }, context: { arguments: { x: 1 } } }, 'context.arguments'],
      [{ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: '' } }, 'Unknown resource template'],
    ];
    for (const [params, fragment] of cases) {
      const err = await rejection(client.request('completion/complete', params as any));
      expect(err.code, JSON.stringify(params)).to.equal(-32602);
      expect(err.message).to.contain(fragment);
    }
  });

  it('[COMPL-005] a callback that throws is -32603', async () => {
    const { mcp } = makeServer();
    mcp.registerPrompt('p', { arguments: [{ name: 'a', complete: () => { throw new Error('index offline'); } }] }, () => 'x');
    const { client } = await connect(mcp);
    const err = await rejection(client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }));
    expect(err.code).to.equal(-32603);
    expect(err.message).to.contain('index offline');
  });

  it('[COMPL-015] [COMPL-016] callbacks see who is asking; a disabled prompt completes nothing', async () => {
    const { mcp } = makeServer();
    const h = mcp.registerPrompt(
      'p',
      { arguments: [{ name: 'user', complete: (value, _context, ctx) => ((ctx.authInfo as { admin?: boolean } | undefined)?.admin ? ['alice', 'bob'] : []).filter((u) => u.startsWith(value)) }] },
      () => 'x',
    );
    const { client } = await connect(mcp);
    const params = { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'user', value: '' } };
    expect(await client.request('completion/complete', params)).to.deep.equal({ completion: { values: [], total: 0, hasMore: false } });
    h.disable();
    expect((await rejection(client.request('completion/complete', params))).message).to.equal('Unknown prompt: p');
  });

  it('[COMPL-002] without the completions capability, completion/complete is -32601', async () => {
    const { mcp } = makeServer();
    mcp.registerPrompt('p', { arguments: [{ name: 'a' }] }, () => 'x');
    const peer = new RawPeer();
    await mcp.connect(peer.transport);
    await initializeRaw(peer);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } } });
    expect((await peer.response(1)).error.code).to.equal(-32601);
  });

  it('[COMPL-001] completes resource template variables through the resources feature', async () => {
    const { mcp } = makeServer();
    mcp.registerResourceTemplate(
      'file',
      'file:///{dir}/{name}',
      { complete: { dir: (value, context) => ['src', 'spec', context.arguments.name ?? ''].filter((d) => d !== '' && d.startsWith(value)) } },
      (uri) => ({ contents: [{ uri, text: 'x' }] }),
    );
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ completions: {} });
    expect(
      await client.request('completion/complete', {
        ref: { type: 'ref/resource', uri: 'file:///{dir}/{name}' },
        argument: { name: 'dir', value: 's' },
        context: { arguments: { name: 'sdk' } },
      }),
    ).to.deep.equal({ completion: { values: ['src', 'spec', 'sdk'], total: 3, hasMore: false } });
    const err = await rejection(
      client.request('completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{other}' }, argument: { name: 'other', value: '' } }),
    );
    expect(err.code).to.equal(-32602);
  });

  it('delegates resource template variables to another completion source when one is set', async () => {
    const { mcp } = makeServer();
    const calls: unknown[] = [];
    mcp.setResourceCompletion({
      complete: (ref, argument, context) => {
        calls.push([ref, argument, context]);
        return ['src/', 'spec/'];
      },
    });
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ completions: {} });
    const r = await client.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'file:///{dir}/{file}' },
      argument: { name: 'dir', value: 's' },
      context: { arguments: { file: 'a.ts' } },
    });
    expect(r).to.deep.equal({ completion: { values: ['src/', 'spec/'], total: 2, hasMore: false } });
    expect(calls).to.deep.equal([[{ type: 'ref/resource', uri: 'file:///{dir}/{file}' }, { name: 'dir', value: 's' }, { arguments: { file: 'a.ts' } }]]);
  });
});
