// A 2026-07-28 answer is the handler's result copied, then given `resultType` and `_meta`: the
// copy must leave the handler's object as it was, and keep a `__proto__` own key (JSON.parse makes
// one, e.g. a tool that passes on what it read) as data, never as the copy's prototype.
import { expect } from 'chai';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

describe('2026-07-28 answers: the handler result copied', () => {
  it('adds resultType and _meta to a copy, and keeps a __proto__ key as data', async () => {
    const returned = JSON.parse('{"content":[{"type":"text","text":"x"}],"_meta":{"mine":1},"__proto__":{"polluted":true}}') as JsonObject;
    const mcp = createMcpServer({ info: { name: 'copy', version: '1' } });
    mcp.registerTool('pass', { description: 'passes on what it read' }, () => returned as never);
    const [client, server] = createMemoryPair({ serialize: true });
    await mcp.connect(server);
    const frames: JsonObject[] = [];
    // serialize: frames cross as JSON text, as on a pipe.
    client.inbound$.subscribe((f) => frames.push((typeof f === 'string' ? JSON.parse(f) : f) as JsonObject));
    await client.start();
    client.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'pass', arguments: {}, _meta: meta } });
    for (let i = 0; i < 200 && !frames.some((f) => f.id === 1); i++) await new Promise((r) => setImmediate(r));
    const result = frames.find((f) => f.id === 1)!.result as JsonObject;
    expect(result.resultType).to.equal('complete');
    expect((result._meta as JsonObject).mine).to.equal(1);
    expect(Object.keys(result._meta as JsonObject)).to.include('io.modelcontextprotocol/serverInfo');
    expect(Object.prototype.hasOwnProperty.call(result, '__proto__')).to.equal(true);
    expect((result as { polluted?: unknown }).polluted).to.equal(undefined);
    // The handler's own object is unchanged.
    expect(returned.resultType).to.equal(undefined);
    expect(Object.keys(returned._meta as JsonObject)).to.deep.equal(['mine']);
    await client.close();
  });
});
