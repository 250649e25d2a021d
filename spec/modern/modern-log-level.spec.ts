// The log level a 2026-07-28 request carries in its _meta, on both ways a modern request
// arrives (Streamable HTTP without a session; a session transport such as stdio): a level that
// is not one of the eight is -32602, a level the server cannot apply (its onLogLevel hook threw)
// is -32603 and the request is not served; the server stays up either way.
//
// The spec says "reject that request with a standard JSON-RPC error: Invalid log level -32602,
// Internal errors -32603" without saying what can fail internally. Ours: the `onLogLevel` hook a
// server gives to apply a client's level to its own logging, which legacy sessions run on
// logging/setLevel (LOG-003). A careful user expects it to see the levels modern clients ask for
// too, and a failure there to refuse the request rather than serve it at a level not applied.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const LEVEL = 'io.modelcontextprotocol/logLevel';

function call(id: number, level?: unknown): JsonObject {
  const _meta: JsonObject = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };
  if (level !== undefined) _meta[LEVEL] = level as string;
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'work', arguments: {}, _meta } };
}

/** A server whose log backend refuses `debug`, with a tool that counts its runs. */
function server() {
  const applied: { level: string; caller: unknown }[] = [];
  let runs = 0;
  const mcp: McpServer = createMcpServer({
    info: { name: 'log-level', version: '1' },
    onLogLevel: async (level, session) => {
      if (level === 'debug') throw new Error('log backend at 10.0.0.5:9200 refused the change');
      applied.push({ level, caller: session.authInfo });
    },
  });
  mcp.registerTool('work', { description: 'works' }, () => {
    runs++;
    return 'done';
  });
  return { mcp, applied, runs: () => runs };
}

/** Over Streamable HTTP: each request answered as JSON. */
async function overHttp(mcp: McpServer): Promise<{ send: (msg: JsonObject) => Promise<any>; close: () => Promise<void> }> {
  const http: Listening = await listen(createStreamableHttpHandler(mcp.server, { authenticate: () => ({ ok: true, authInfo: { sub: 'ada' } }) }), { logger: false });
  return {
    send: async (msg) => (await post(http.url, msg, { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'work' })).json,
    close: () => http.close(),
  };
}

/** Over a session transport (what stdio carries): each request's answer as it comes back. */
async function overSession(mcp: McpServer): Promise<{ send: (msg: JsonObject) => Promise<any>; close: () => Promise<void> }> {
  const [client, transport] = createMemoryPair();
  await mcp.connect(transport);
  const waiting = new Map<unknown, (f: JsonObject) => void>();
  client.inbound$.subscribe((frame) => {
    const f = frame as JsonObject;
    if ('id' in f) waiting.get(f.id)?.(f);
  });
  await client.start();
  return {
    send: (msg) => {
      const answered = new Promise<JsonObject>((resolve) => waiting.set(msg.id, resolve));
      client.send(msg as never);
      return answered;
    },
    close: () => client.close(),
  };
}

for (const [way, open] of [
  ['Streamable HTTP', overHttp],
  ['a session transport (stdio)', overSession],
] as const) {
  describe(`the log level of a 2026-07-28 request, over ${way}`, () => {
    it('[LOG-034] a level the server cannot apply (its onLogLevel hook threw) is -32603 without internal details; the request is not served, the server stays up', async () => {
      const { mcp, applied, runs } = server();
      const peer = await open(mcp);
      try {
        const refused = await peer.send(call(1, 'debug'));
        expect(refused).to.not.have.property('result');
        expect(refused.id).to.equal(1);
        expect(refused.error.code).to.equal(-32603);
        expect(refused.error.message).to.contain('could not apply log level "debug"');
        expect(refused.error.message).to.not.contain('10.0.0.5');
        expect(refused.error.data).to.deep.equal({ level: 'debug' });
        expect(runs()).to.equal(0);

        // A level it can apply: the hook saw it (with the caller), the request is served.
        const served = await peer.send(call(2, 'info'));
        expect(served.result.content[0].text).to.equal('done');
        expect(applied.map((a) => a.level)).to.deep.equal(['info']);
        if (way === 'Streamable HTTP') expect(applied[0]!.caller).to.deep.include({ sub: 'ada' });
        // No level asked: nothing to apply.
        const quiet = await peer.send(call(3));
        expect(quiet.result.content[0].text).to.equal('done');
        expect(applied).to.have.length(1);
        expect(runs()).to.equal(2);
      } finally {
        await peer.close();
      }
    });

    it('[LOG-033] a level that is not one of the eight is -32602 before the hook runs, and the request is not served', async () => {
      const { mcp, applied, runs } = server();
      const peer = await open(mcp);
      try {
        for (const [i, level] of ['loud', 'INFO', 7, null].entries()) {
          const refused = await peer.send(call(10 + i, level));
          expect(refused.error.code, String(level)).to.equal(-32602);
          expect(refused.error.message).to.contain(LEVEL);
        }
        expect(applied).to.deep.equal([]);
        expect(runs()).to.equal(0);
        expect((await peer.send(call(20, 'error'))).result.content[0].text).to.equal('done');
      } finally {
        await peer.close();
      }
    });
  });
}
