import { expect } from 'chai';
import { UrlElicitationRequiredError } from '../../lib/server-features/client-calls.js';
import { connect, makeServer, rejection } from './helpers.js';

describe('server features: the handler context', () => {
  it('asks the client for sampling, elicitation and roots on the request’s behalf', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('ask', {}, async (_args, ctx) => {
      const roots = await ctx.listRoots();
      const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Name a colour' } }], maxTokens: 10 });
      const confirm = await ctx.elicit({
        message: 'Proceed?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      return {
        structuredContent: {
          roots: roots.roots.map((r) => r.uri),
          said: !Array.isArray(answer.content) && answer.content.type === 'text' ? answer.content.text : '?',
          action: confirm.action,
          revision: ctx.revision,
        },
      };
    });
    const { client } = await connect(mcp, { capabilities: { sampling: {}, roots: {}, elicitation: {} } });
    const related: unknown[] = [];
    client.onRequest('roots/list', () => ({ roots: [{ uri: 'file:///work' }] }));
    client.onRequest('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'teal' }, model: 'm' }));
    client.onRequest('elicitation/create', (params) => {
      related.push(params?.message);
      return { action: 'accept', content: { ok: true } };
    });
    const r = (await client.request('tools/call', { name: 'ask' })) as any;
    expect(r.structuredContent).to.deep.equal({ roots: ['file:///work'], said: 'teal', action: 'accept', revision: '2025-11-25' });
    expect(related).to.deep.equal(['Proceed?']);
  });

  it('a client call the client cannot take fails inside the tool, which reports it as an isError result', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('ask', {}, async (_args, ctx) => {
      await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 1 });
      return 'unreachable';
    });
    const { client } = await connect(mcp);
    const r = (await client.request('tools/call', { name: 'ask' })) as any;
    expect(r.isError).to.equal(true);
    expect(r.content[0].text).to.contain('sampling');
  });

  it('UrlElicitationRequiredError from a tool is the -32042 protocol error', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('connect-account', {}, () => {
      throw new UrlElicitationRequiredError([{ message: 'Sign in', url: 'https://example.com/oauth', elicitationId: 'e1' }]);
    });
    const { client } = await connect(mcp, { capabilities: { elicitation: { url: {} } } });
    const err = await rejection(client.request('tools/call', { name: 'connect-account' }));
    expect(err.code).to.equal(-32042);
    expect(err.data.elicitations[0]).to.deep.include({ mode: 'url', elicitationId: 'e1', url: 'https://example.com/oauth' });
  });
});
