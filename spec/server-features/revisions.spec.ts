import { expect } from 'chai';
import { allows, type Revision } from '../../lib/protocol/revisions.js';
import { audio, image, resourceLink, text } from '../../lib/server-features/content.js';
import type { McpServer } from '../../lib/mcp-server.js';
import { connect, makeServer } from './helpers.js';

const PNG = Buffer.from('png').toString('base64');

function richServer(): McpServer {
  const { mcp } = makeServer();
  mcp.registerTool(
    'weather',
    {
      title: 'Weather',
      description: 'Weather now',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] },
      annotations: { readOnlyHint: true, title: 'Weather (hint)' },
      icons: [{ src: 'https://example.com/w.png', sizes: ['48x48'] }],
      execution: { taskSupport: 'forbidden' },
      _meta: { 'example.com/owner': 'ops' },
    },
    () => ({
      content: [
        text('21 degrees', { annotations: { audience: ['user'], lastModified: '2025-01-01T00:00:00Z' }, _meta: { 'example.com/k': 1 } }),
        image(PNG, 'image/png'),
        audio(PNG, 'audio/wav'),
        resourceLink({ uri: 'file:///forecast.json', name: 'forecast.json' }),
      ],
      structuredContent: { t: 21 },
    }),
  );
  mcp.registerTool('structured-only', { outputSchema: { type: 'object', properties: { t: { type: 'number' } } } }, () => ({ structuredContent: { t: 5 } }));
  mcp.registerPrompt(
    'p',
    { title: 'Prompt', arguments: [{ name: 'a', title: 'A', description: 'an a' }], icons: [{ src: 'https://example.com/p.png' }], _meta: { 'example.com/x': true } },
    () => [
      { role: 'user', content: text('hello') },
      { role: 'user', content: audio(PNG, 'audio/wav') },
      { role: 'user', content: resourceLink({ uri: 'file:///x', name: 'x' }) },
    ],
  );
  return mcp;
}

async function wire(rev: Revision) {
  const { client, session } = await connect(richServer(), { supportedVersions: [rev] });
  expect(session.protocolVersion).to.equal(rev);
  const tool = ((await client.request('tools/list')) as any).tools[0];
  const result = (await client.request('tools/call', { name: 'weather', arguments: { city: 'Oslo' } })) as any;
  const structuredOnly = (await client.request('tools/call', { name: 'structured-only' })) as any;
  const prompt = ((await client.request('prompts/list')) as any).prompts[0];
  const messages = ((await client.request('prompts/get', { name: 'p' })) as any).messages;
  return { tool, result, structuredOnly, prompt, messages };
}

describe('server features: revision downgrade', () => {
  it('2024-11-05: no title, outputSchema, annotations, icons, _meta, structuredContent, audio or resource links', async () => {
    const { tool, result, structuredOnly, prompt, messages } = await wire('2024-11-05');
    expect(tool).to.deep.equal({ name: 'weather', description: 'Weather now', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } });
    expect(result).to.not.have.property('structuredContent');
    expect(result.content).to.deep.equal([
      { type: 'text', text: '21 degrees', annotations: { audience: ['user'] } },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]);
    // The structured result still reaches an old client, as JSON text.
    expect(structuredOnly).to.deep.equal({ content: [{ type: 'text', text: '{"t":5}' }] });
    expect(prompt).to.deep.equal({ name: 'p', arguments: [{ name: 'a', description: 'an a' }] });
    expect(messages).to.deep.equal([{ role: 'user', content: { type: 'text', text: 'hello' } }]);
  });

  it('2025-03-26: tool annotations and audio arrive; still no title, outputSchema, structuredContent, resource links or icons', async () => {
    const { tool, result, structuredOnly, prompt, messages } = await wire('2025-03-26');
    expect(tool).to.deep.equal({
      name: 'weather',
      description: 'Weather now',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      annotations: { readOnlyHint: true, title: 'Weather (hint)' },
    });
    expect(result).to.not.have.property('structuredContent');
    expect(result.content.map((b: any) => b.type)).to.deep.equal(['text', 'image', 'audio']);
    expect(result.content[0]).to.deep.equal({ type: 'text', text: '21 degrees', annotations: { audience: ['user'] } });
    expect(structuredOnly).to.deep.equal({ content: [{ type: 'text', text: '{"t":5}' }] });
    expect(prompt).to.deep.equal({ name: 'p', arguments: [{ name: 'a', description: 'an a' }] });
    expect(messages.map((m: any) => m.content.type)).to.deep.equal(['text', 'audio']);
  });

  it('2025-06-18: title, outputSchema, structuredContent, resource links and _meta arrive; icons and execution do not', async () => {
    const { tool, result, structuredOnly, prompt, messages } = await wire('2025-06-18');
    expect(tool).to.deep.equal({
      name: 'weather',
      title: 'Weather',
      description: 'Weather now',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] },
      annotations: { readOnlyHint: true, title: 'Weather (hint)' },
      _meta: { 'example.com/owner': 'ops' },
    });
    expect(result.structuredContent).to.deep.equal({ t: 21 });
    expect(result.content.map((b: any) => b.type)).to.deep.equal(['text', 'image', 'audio', 'resource_link']);
    expect(result.content[0]).to.deep.equal({
      type: 'text',
      text: '21 degrees',
      annotations: { audience: ['user'], lastModified: '2025-01-01T00:00:00Z' },
      _meta: { 'example.com/k': 1 },
    });
    expect(structuredOnly).to.deep.equal({ content: [{ type: 'text', text: '{"t":5}' }], structuredContent: { t: 5 } });
    expect(prompt).to.deep.equal({ name: 'p', title: 'Prompt', arguments: [{ name: 'a', title: 'A', description: 'an a' }], _meta: { 'example.com/x': true } });
    expect(messages.map((m: any) => m.content.type)).to.deep.equal(['text', 'audio', 'resource_link']);
  });

  it('2025-11-25: everything, icons and execution included', async () => {
    const { tool, prompt } = await wire('2025-11-25');
    expect(tool.icons).to.deep.equal([{ src: 'https://example.com/w.png', sizes: ['48x48'] }]);
    expect(tool.execution).to.deep.equal({ taskSupport: 'forbidden' });
    expect(prompt.icons).to.deep.equal([{ src: 'https://example.com/p.png' }]);
  });

  it('follows the revision table rows it relies on', () => {
    // If the table changes, the expectations above must change with it.
    expect(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'].map((r) => allows(r as Revision, 'audioContent'))).to.deep.equal([false, true, true, true]);
    expect(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'].map((r) => allows(r as Revision, 'toolAnnotations'))).to.deep.equal([false, true, true, true]);
    expect(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'].map((r) => allows(r as Revision, 'structuredContent'))).to.deep.equal([false, false, true, true]);
    expect(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'].map((r) => allows(r as Revision, 'icons'))).to.deep.equal([false, false, false, true]);
  });
});
