// Nothing missed in a server's journal of 2026-07-28 requests (issue 26): a request refused for its
// envelope before dispatch (a malformed `_meta`, a revision the server does not speak) is journaled
// as received, with its refusal and the `failed` state, on a session's transport and over HTTP (the
// fetch handler), and the journal replays identical (the replaying core refuses it again).
import { expect } from 'chai';
import type { Clock } from '../../lib/clock.js';
import { ManualClock } from '../../lib/clock.js';
import { replay } from '../../lib/journal/replay.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { RawPeer } from '../helpers/raw-peer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

const server = ({ clock }: { clock: Clock }): McpServer => {
  const mcp = createMcpServer({ info: { name: 'refuser', version: '1' }, clock, journal: true });
  mcp.registerTool('echo', { description: 'echo' }, (args) => String(args.text));
  return mcp;
};

/** Two refused requests, then one served: what the server's journal says of each, and that it replays. */
async function expectJournaled(mcp: McpServer): Promise<void> {
  const journal = mcp.journal!;
  const byRq = new Map<number, string[]>();
  for (const e of journal.entries) {
    if (!('rq' in e) || e.rq === undefined) continue;
    const what = e.kind === 'state' ? `state ${e.state}` : e.kind === 'out' && 'error' in e.frame ? `out ${e.frame.error.code}` : e.kind;
    byRq.set(e.rq, [...(byRq.get(e.rq) ?? []), what]);
  }
  expect([...byRq.values()]).to.deep.equal([
    ['in', 'out -32602', 'state failed'],
    ['in', 'out -32022', 'state failed'],
    ['in', 'out', 'state answered'],
  ]);
  const again = await replay(journal.toJSONL(), { server });
  expect(again.firstDifference).to.equal(undefined);
  expect(again.matches).to.equal(true);
}

const malformed = { name: 'echo', arguments: { text: 'a' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
const unsupported = { name: 'echo', arguments: { text: 'b' }, _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } };
const fine = { name: 'echo', arguments: { text: 'c' }, _meta: META };

describe('server journal: requests refused for their envelope', () => {
  it('on a session transport (memory): each refusal journaled as failed, and the journal replays', async () => {
    const mcp = server({ clock: new ManualClock(1_000) });
    const peer = new RawPeer();
    await mcp.connect(peer.transport);
    for (const [id, params] of [[1, malformed], [2, unsupported], [3, fine]] as const) {
      peer.send({ jsonrpc: '2.0', id, method: 'tools/call', params });
      await peer.response(id);
    }
    await expectJournaled(mcp);
    await peer.close();
    await mcp.close();
  });

  it('over HTTP (the fetch handler): each refusal journaled as failed, and the journal replays', async () => {
    const mcp = server({ clock: new ManualClock(1_000) });
    const handler = createMcpFetchHandler(mcp);
    for (const [id, params] of [[1, malformed], [2, unsupported], [3, fine]] as const) {
      const version = params._meta['io.modelcontextprotocol/protocolVersion'];
      const response = await handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
        }),
      );
      await response.text();
    }
    await expectJournaled(mcp);
    await handler.close();
    await mcp.close();
  });
});
