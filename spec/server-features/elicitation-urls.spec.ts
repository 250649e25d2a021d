import { expect } from 'chai';
import sinon from 'sinon';
import { Client } from '../../lib/entries/client.js';
import { clickableUrlsInForm } from '../../lib/server-features/elicitation-schema.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, makeServer } from './helpers.js';

const WARNING = 'clickable-url-in-form-elicitation';

describe('server features: URLs in form elicitations', () => {
  afterEach(() => sinon.restore());

  it('[ELICIT-042] a form whose message or fields hold URLs is sent, with a warning naming where they are', async () => {
    const warn = sinon.stub(process, 'emitWarning');
    const { mcp } = makeServer();
    const schema = {
      type: 'object',
      properties: {
        repo: { type: 'string', title: 'Repository', description: 'See https://docs.example.com/repos. for the naming rules' },
        plan: { type: 'string', oneOf: [{ const: 'free', title: 'Free' }, { const: 'pro', title: 'Pro (www.example.com/pricing)' }] },
        plain: { type: 'boolean', title: 'Subscribe?' },
      },
    };
    mcp.registerTool('setup', {}, async (_args, ctx) => {
      const r = await ctx.elicit({ message: 'Set up your project (details: https://example.com/help)', requestedSchema: schema as never });
      return r.action;
    });
    mcp.registerTool('clean', {}, async (_args, ctx) => (await ctx.elicit({ message: 'Pick a plan', requestedSchema: { type: 'object', properties: { plain: { type: 'boolean' } } } })).action);
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, capabilities: { elicitation: {} } });
    const shown: any[] = [];
    client.onRequest('elicitation/create', (params) => {
      shown.push(params);
      return { action: 'decline' };
    });
    await client.connect(b);

    const result = (await client.request('tools/call', { name: 'setup' })) as any;
    expect(result.content[0].text).to.equal('decline');
    expect(shown[0].message).to.equal('Set up your project (details: https://example.com/help)');
    const calls = () => warn.getCalls().filter((c) => (c.args[1] as any)?.code === WARNING);
    expect(calls()).to.have.length(1);
    const text = calls()[0]!.args[0] as string;
    expect(text).to.contain('message: https://example.com/help');
    expect(text).to.contain('requestedSchema.properties.repo.description: https://docs.example.com/repos');
    expect(text).to.contain('requestedSchema.properties.plan.oneOf[1].title: www.example.com/pricing');
    expect(text).to.contain('URL-mode elicitation');

    // The same form again: not repeated. A form without URLs: no warning.
    await client.request('tools/call', { name: 'setup' });
    await client.request('tools/call', { name: 'clean' });
    expect(calls()).to.have.length(1);
    await client.close();
  });

  it('[ELICIT-042] clickableUrlsInForm looks at the message, titles, descriptions and choice labels only', () => {
    const found = clickableUrlsInForm('Hello', {
      type: 'object',
      properties: {
        site: { type: 'string', format: 'uri', title: 'Your site', default: 'https://default.example' } as never,
        lang: { type: 'string', enum: ['en', 'fr'], enumNames: ['English', 'Français — http://fr.example'] } as never,
        tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A https://a.example' }] } } as never,
      },
    });
    expect(found).to.deep.equal([
      { where: 'requestedSchema.properties.lang.enumNames[1]', url: 'http://fr.example' },
      { where: 'requestedSchema.properties.tags.items.anyOf[0].title', url: 'https://a.example' },
    ]);
  });
});
