import { expect } from 'chai';
import sinon from 'sinon';
import type { ServerDiagnostic } from '../../lib/server-features/diagnostics.js';
import { connect, makeServer } from './helpers.js';

const embedded = { type: 'resource' as const, resource: { uri: 'file:///project/src/main.rs', mimeType: 'text/x-rust', text: 'fn main() {}' } };

describe('server features: embedded resources and the resources capability', () => {
  afterEach(() => sinon.restore());

  it('[TOOL-008] a tool returning an embedded resource without the resources capability is reported once, with what to do', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('read_main', {}, () => [embedded]);
    mcp.registerTool('plain', {}, () => 'text only');
    const seen: ServerDiagnostic[] = [];
    mcp.diagnostics$.subscribe((d) => seen.push(d));
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).not.to.have.property('resources');

    await client.request('tools/call', { name: 'plain' });
    expect(seen).to.deep.equal([]);
    const result = (await client.request('tools/call', { name: 'read_main' })) as any;
    // Advice, not a failure: the client gets the result as the tool returned it.
    expect(result.content).to.deep.equal([embedded]);
    await client.request('tools/call', { name: 'read_main' });
    const other = await connect(mcp);
    await other.client.request('tools/call', { name: 'read_main' });

    expect(seen).to.have.length(1);
    expect(seen[0]!.kind).to.equal('embedded-resource-without-resources-capability');
    expect(seen[0]!.message).to.contain('Tool "read_main" returned an embedded resource').and.to.contain('registerResource');
    expect(seen[0]!.detail).to.deep.equal({ tool: 'read_main', uri: 'file:///project/src/main.rs' });
  });

  it('[TOOL-008] nothing is reported when the server implements resources', async () => {
    const { mcp } = makeServer();
    mcp.registerResource('main', 'file:///project/src/main.rs', {}, () => ({ contents: [embedded.resource] }));
    mcp.registerTool('read_main', {}, () => [embedded]);
    const seen: ServerDiagnostic[] = [];
    mcp.diagnostics$.subscribe((d) => seen.push(d));
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).to.have.property('resources');
    await client.request('tools/call', { name: 'read_main' });
    expect(seen).to.deep.equal([]);
  });

  it('unobserved, the advice goes to Node’s warning channel (stderr), once', async () => {
    const warn = sinon.stub(process, 'emitWarning');
    const { mcp } = makeServer();
    mcp.registerTool('read_main', {}, () => [embedded]);
    const { client } = await connect(mcp);
    await client.request('tools/call', { name: 'read_main' });
    await client.request('tools/call', { name: 'read_main' });
    const calls = warn.getCalls().filter((c) => (c.args[1] as any)?.code === 'embedded-resource-without-resources-capability');
    expect(calls).to.have.length(1);
    expect(calls[0]!.args[0]).to.contain('does not declare the "resources" capability');
  });
});
