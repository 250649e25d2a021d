// Every 2026-07-28 result carries the server's info in `_meta`. The server sends a copy of its
// info made once (its JSON text made once too): the wire and an in-memory client see the info as
// given, each answer's `_meta` is its own object, nobody who receives the info can change what
// later answers carry, and info the options are given afresh is what answers carry from then on.
import { expect } from 'chai';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';

const INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } };

/** A server with one tool, and a raw peer that sends `tools/call` and returns each answer as it arrives (text when serialized). */
async function serve(serialize: boolean) {
  const info = { name: 'info-spec', version: '1.0.0', title: 'Info "spec"', icons: [{ src: 'https://example.com/i.png', sizes: ['16x16'] }] };
  const mcp = createMcpServer({ info });
  mcp.registerTool('echo', { description: 'echo' }, () => ({ content: [{ type: 'text', text: 'x' }], _meta: { mine: 1 } }));
  const [client, server] = createMemoryPair({ serialize });
  await mcp.connect(server);
  const frames: unknown[] = [];
  client.inbound$.subscribe((f) => frames.push(f));
  await client.start();
  let id = 0;
  const call = async (): Promise<unknown> => {
    const want = ++id;
    client.send({ jsonrpc: '2.0', id: want, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: envelope } });
    const found = (): unknown => frames.find((f) => (typeof f === 'string' ? (JSON.parse(f) as JsonObject).id : (f as JsonObject).id) === want);
    for (let i = 0; i < 200 && found() === undefined; i++) await new Promise((r) => setImmediate(r));
    return found();
  };
  return { mcp, info, call, close: () => client.close() };
}

describe('2026-07-28 answers: the server info each result carries', () => {
  it('over a serializing transport: the info as given, beside the handler\'s own _meta keys, in each answer', async () => {
    const { info, call, close } = await serve(true);
    for (let n = 0; n < 3; n++) {
      const text = (await call()) as string;
      expect(text).to.be.a('string');
      const result = (JSON.parse(text) as { result: JsonObject }).result;
      expect(result._meta).to.deep.equal({ mine: 1, [INFO_KEY]: info });
      expect(text).to.include(`"_meta":{"mine":1,"${INFO_KEY}":${JSON.stringify(info)}}`);
    }
    await close();
  });

  it('in memory: each answer has its own _meta, the info as given, and a receiver cannot change what later answers carry', async () => {
    const { info, call, close } = await serve(false);
    const first = (await call()) as { result: JsonObject };
    const second = (await call()) as { result: JsonObject };
    expect(first.result._meta).to.not.equal(second.result._meta);
    const received = (first.result._meta as JsonObject)[INFO_KEY] as { name: string; icons: { src: string }[] };
    expect(received).to.deep.equal(info);
    expect(() => {
      received.name = 'changed by the client';
    }).to.throw(TypeError);
    expect(() => {
      received.icons[0]!.src = 'changed';
    }).to.throw(TypeError);
    const third = (await call()) as { result: JsonObject };
    expect((third.result._meta as JsonObject)[INFO_KEY]).to.deep.equal(info);
    await close();
  });

  it('info the options are given afresh is what later answers carry', async () => {
    const { mcp, call, close } = await serve(true);
    await call();
    const renamed = { name: 'renamed', version: '2.0.0' };
    (mcp.server.options as { info: unknown }).info = renamed;
    const text = (await call()) as string;
    expect(((JSON.parse(text) as { result: JsonObject }).result._meta as JsonObject)[INFO_KEY]).to.deep.equal(renamed);
    await close();
  });
});
