import { expect } from 'chai';
import { z } from 'zod';
import { audio, embeddedResource, image, text } from '../../lib/server-features/content.js';
import { RawPeer, initializeRaw } from '../helpers/raw-peer.js';
import { connect, makeServer, rejection } from './helpers.js';

const PNG = Buffer.from([137, 80, 78, 71]).toString('base64');

describe('server features: prompts', () => {
  it('[PROMPT-001] declares the prompts capability once a prompt is registered (and not before)', async () => {
    const bare = makeServer();
    const peer = new RawPeer();
    await bare.mcp.connect(peer.transport);
    expect((await initializeRaw(peer)).result.capabilities).to.not.have.property('prompts');

    const { mcp } = makeServer();
    mcp.registerPrompt('p', {}, () => 'hi');
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ prompts: { listChanged: true } });
  });

  it('lists prompts with title, description and arguments', async () => {
    const { mcp } = makeServer();
    mcp.registerPrompt(
      'code_review',
      {
        title: 'Request Code Review',
        description: 'Asks the LLM to analyze code quality',
        arguments: [
          { name: 'code', description: 'The code to review', required: true },
          { name: 'style', title: 'Style guide' },
        ],
        icons: [{ src: 'data:image/png;base64,AA==' }],
      },
      ({ code }) => `Review:\n${code}`,
    );
    const { client } = await connect(mcp);
    expect(await client.request('prompts/list')).to.deep.equal({
      prompts: [
        {
          name: 'code_review',
          title: 'Request Code Review',
          description: 'Asks the LLM to analyze code quality',
          arguments: [
            { name: 'code', description: 'The code to review', required: true },
            { name: 'style', title: 'Style guide' },
          ],
          icons: [{ src: 'data:image/png;base64,AA==' }],
        },
      ],
    });
    expect(await client.request('prompts/get', { name: 'code_review', arguments: { code: 'x = 1' } })).to.deep.equal({
      messages: [{ role: 'user', content: { type: 'text', text: 'Review:\nx = 1' } }],
    });
  });

  it('[PROMPT-009] [PROMPT-011] a missing required argument is -32602 naming it', async () => {
    const { mcp } = makeServer();
    let called = false;
    mcp.registerPrompt('p', { arguments: [{ name: 'a', required: true }, { name: 'b', required: true }, { name: 'c' }] }, () => {
      called = true;
      return 'x';
    });
    const { client } = await connect(mcp);
    const err = await rejection(client.request('prompts/get', { name: 'p', arguments: { b: 'given' } }));
    expect(err.code).to.equal(-32602);
    expect(err.message).to.equal('Prompt "p" is missing required argument: a');
    expect(err.data).to.deep.equal({ missing: ['a'] });
    const both = await rejection(client.request('prompts/get', { name: 'p' }));
    expect(both.message).to.contain('missing required arguments: a, b');
    expect(called).to.equal(false);
  });

  it('[PROMPT-008] an unknown prompt is -32602', async () => {
    const { mcp } = makeServer();
    const h = mcp.registerPrompt('p', {}, () => 'x');
    const { client } = await connect(mcp);
    const err = await rejection(client.request('prompts/get', { name: 'nope' }));
    expect(err.code).to.equal(-32602);
    expect(err.message).to.equal('Unknown prompt: nope');
    h.disable();
    expect((await rejection(client.request('prompts/get', { name: 'p' }))).code).to.equal(-32602);
    expect((await client.request('prompts/list')) as any).to.deep.equal({ prompts: [] });
  });

  it('[PROMPT-011] [PROMPT-014] argument values must be strings; an argsSchema validates them', async () => {
    const { mcp } = makeServer();
    mcp.registerPrompt('plain', { arguments: [{ name: 'n' }] }, () => 'x');
    mcp.registerPrompt(
      'typed',
      { argsSchema: z.object({ language: z.enum(['python', 'rust']).describe('Language'), focus: z.string().optional() }) },
      ({ language, focus }) => `Review ${language}${focus ? ` for ${focus}` : ''}`,
    );
    const { client } = await connect(mcp);
    const notString = await rejection(client.request('prompts/get', { name: 'plain', arguments: { n: 5 } }));
    expect(notString.code).to.equal(-32602);
    expect(notString.message).to.contain('must be strings');
    const listed = ((await client.request('prompts/list')) as any).prompts[1];
    expect(listed.arguments).to.deep.equal([
      { name: 'language', description: 'Language', required: true },
      { name: 'focus', required: false },
    ]);
    expect(await client.request('prompts/get', { name: 'typed', arguments: { language: 'rust' } })).to.deep.equal({
      messages: [{ role: 'user', content: { type: 'text', text: 'Review rust' } }],
    });
    const bad = await rejection(client.request('prompts/get', { name: 'typed', arguments: { language: 'cobol' } }));
    expect(bad.code).to.equal(-32602);
    expect(bad.message).to.contain('Invalid arguments for prompt "typed"').and.to.contain('language');
    const missing = await rejection(client.request('prompts/get', { name: 'typed', arguments: {} }));
    expect(missing.message).to.contain('missing required argument: language');
  });

  it('[PROMPT-003] [PROMPT-004] [PROMPT-005] [PROMPT-006] [PROMPT-007] messages carry text, image, audio and embedded resources', async () => {
    const { mcp } = makeServer();
    mcp.registerPrompt('multi', { description: 'all kinds' }, () => ({
      description: 'A multimodal prompt',
      messages: [
        { role: 'user', content: text('Look at this') },
        { role: 'user', content: image(PNG, 'image/png') },
        { role: 'user', content: audio(PNG, 'audio/wav') },
        { role: 'assistant', content: embeddedResource({ uri: 'resource://example', mimeType: 'text/plain', text: 'Resource content' }) },
        { role: 'user', content: embeddedResource({ uri: 'resource://bin', mimeType: 'application/octet-stream', blob: new Uint8Array([0, 1]) }) },
      ],
    }));
    const { client } = await connect(mcp);
    const r = (await client.request('prompts/get', { name: 'multi' })) as any;
    expect(r.description).to.equal('A multimodal prompt');
    expect(r.messages.map((m: any) => m.content.type)).to.deep.equal(['text', 'image', 'audio', 'resource', 'resource']);
    expect(r.messages[2].content).to.deep.equal({ type: 'audio', data: PNG, mimeType: 'audio/wav' });
    expect(r.messages[3].content.resource).to.deep.equal({ uri: 'resource://example', mimeType: 'text/plain', text: 'Resource content' });
    expect(r.messages[4].content.resource.blob).to.equal('AAE=');
  });

  it('[PROMPT-010] [PROMPT-003] [PROMPT-006] malformed messages and handler failures are -32603', async () => {
    const { mcp } = makeServer();
    mcp.registerPrompt('bad-image', {}, () => [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'png' } }]);
    mcp.registerPrompt('no-mime', {}, () => [{ role: 'user', content: { type: 'resource', resource: { uri: 'x://y', text: 'a' } } }]);
    mcp.registerPrompt('bad-role', {}, () => [{ role: 'system' as any, content: text('x') }]);
    mcp.registerPrompt('throws', {}, () => {
      throw new Error('template store offline');
    });
    const { client } = await connect(mcp);
    for (const [name, fragment] of [
      ['bad-image', 'MIME'],
      ['no-mime', 'mimeType'],
      ['bad-role', 'role'],
      ['throws', 'template store offline'],
    ]) {
      const err = await rejection(client.request('prompts/get', { name }));
      expect(err.code, name).to.equal(-32603);
      expect(err.message).to.contain(fragment);
    }
  });

  it('handles update and remove the prompt; arguments and argsSchema cannot be combined', async () => {
    const { mcp } = makeServer();
    const h = mcp.registerPrompt('p', { description: 'one' }, () => 'one');
    const { client } = await connect(mcp);
    h.update({ description: 'two', handler: () => 'two' });
    expect(((await client.request('prompts/list')) as any).prompts[0].description).to.equal('two');
    expect(((await client.request('prompts/get', { name: 'p' })) as any).messages[0].content.text).to.equal('two');
    h.remove();
    expect((await client.request('prompts/list')) as any).to.deep.equal({ prompts: [] });
    expect(() => mcp.registerPrompt('q', { arguments: [{ name: 'a' }], argsSchema: z.object({ a: z.string() }) }, () => 'x')).to.throw(/not both/);
  });
});
