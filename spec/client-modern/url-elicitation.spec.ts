// URL-mode elicitation through a multi round-trip request (2026-07-28), end to end with our
// McpServer and our Client: the input request carries no elicitationId (the revision removed it,
// with the completion notification), the client asks consent, opens the URL and answers accept
// with the retry; the server's handler sees the same elicitationId on both runs (kept in the
// signed requestState), so it can correlate its out-of-band flow. The legacy era keeps the id on
// the wire and the completion notification.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import type { ElicitationStatus, UrlElicitationRequest } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

function payServer() {
  const ids: (string | undefined)[] = [];
  const mcp = createMcpServer({ info: { name: 'pay', version: '1.0.0' } });
  mcp.registerTool('pay', {}, async (_args, ctx) => {
    const call = ctx.elicit({ mode: 'url', url: 'https://pay.example.com/checkout?order=7', message: 'Confirm the payment' });
    ids.push(call.elicitationId);
    const answer = await call;
    return `${answer.action} ${call.elicitationId}`;
  });
  return { mcp, ids };
}

function payingClient(era: 'auto' | 'legacy') {
  const client = new Client({ info: { name: 'c', version: '1' }, era });
  const shown: UrlElicitationRequest[] = [];
  const opened: string[] = [];
  const statuses: ElicitationStatus[] = [];
  client.onElicitation({
    url: (request) => {
      shown.push(request);
      return 'accept';
    },
    openUrl: (url) => void opened.push(url),
  });
  client.elicitations$.subscribe((s) => statuses.push(s));
  return { client, shown, opened, statuses };
}

describe('client: URL elicitation through input rounds (2026-07-28)', () => {
  it('[ELICIT-006] [ELICIT-014] no elicitationId goes to the client; consent, open, accept with the retry; the handler keeps one elicitationId over both runs', async () => {
    const { mcp, ids } = payServer();
    const [a, b] = createMemoryPair();
    await mcp.connect(b);
    const { client, shown, opened, statuses } = payingClient('auto');
    const wire: unknown[] = [];
    b.inbound$.subscribe((raw) => wire.push(typeof raw === 'string' ? JSON.parse(raw) : raw));
    await client.connect(a);
    expect(client.era).to.equal('modern');
    const result = await client.callTool('pay');
    const text = (result.content[0] as { text: string }).text;
    // The handler ran twice (asked, then answered by the retry) with the same id.
    expect(ids).to.have.length(2);
    expect(ids[0]).to.be.a('string').and.equal(ids[1]);
    expect(text).to.equal(`accept ${ids[0]}`);
    // The client saw the URL and its domain, without an id, and opened it once.
    expect(shown).to.have.length(1);
    expect(shown[0]).to.include({ url: 'https://pay.example.com/checkout?order=7', domain: 'pay.example.com', elicitationId: undefined });
    expect(opened).to.deep.equal(['https://pay.example.com/checkout?order=7']);
    // Its flow ends when the answer goes back: no completion notification exists to wait for.
    expect(statuses.at(-1)).to.include({ mode: 'url', state: 'handedBack', done: true });
    // No frame names the id in the clear (the signed state carries it base64-encoded, for the server).
    expect(JSON.stringify(wire)).to.not.contain(ids[0]!);
    await client.close();
    await mcp.close();
  });

  it('the legacy era keeps elicitationId on the wire, as 2025-11-25 has it', async () => {
    const { mcp, ids } = payServer();
    const [a, b] = createMemoryPair();
    await mcp.connect(b);
    const { client, shown } = payingClient('legacy');
    await client.connect(a);
    const result = await client.callTool('pay');
    expect(ids).to.have.length(1);
    expect(shown[0]!.elicitationId).to.equal(ids[0]);
    expect((result.content[0] as { text: string }).text).to.equal(`accept ${ids[0]}`);
    await client.close();
    await mcp.close();
  });
});
