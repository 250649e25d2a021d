// OUR Client over OUR Streamable HTTP client transport against the OFFICIAL SDK's deprecated
// SSEServerTransport (HTTP+SSE, 2024-11-05): the transport falls back by itself.
import { expect } from 'chai';
import type { Progress } from '../../lib/entries/client.js';
import { createLegacySseClientTransport } from '../../streams/legacy-sse-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startSdkLegacyServer, type SdkLegacyServer } from '../fixtures/http-client/sdk-servers.js';
import { capturingFetch, firstText, newClient, recordStates, rejectionOf } from './http-client-helpers.js';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

describe('http client: legacy HTTP+SSE fallback against the SDK SSEServerTransport', function () {
  let server: SdkLegacyServer;
  beforeEach(async () => {
    server = await startSdkLegacyServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('[SSE-004] falls back when POST initialize gets 405: GET, endpoint event, POSTs there, answers on the stream', async () => {
    const { fetch, sent } = capturingFetch();
    const transport = createStreamableHttpClientTransport(server.url, { fetch });
    const states = recordStates(transport.state$);
    const client = newClient(['2024-11-05']);
    await client.connect(transport);
    expect(client.protocolVersion).to.equal('2024-11-05');
    expect(transport.mode).to.equal('legacy-sse');
    const fallback = states.find((s) => s.details?.event === 'fallback')!.details!;
    expect(fallback).to.deep.include({ mode: 'legacy-sse' });
    expect(fallback.endpoint).to.match(/^http:\/\/127\.0\.0\.1:\d+\/messages\?sessionId=/);
    expect(fallback.reason).to.include('405');

    expect(firstText(await client.request('tools/call', call('echo', { text: 'old' })))).to.equal('old');
    const seen: Progress[] = [];
    expect(firstText(await client.request('tools/call', call('progress'), { onprogress: (p) => seen.push(p) }))).to.equal('done');
    expect(seen.map((p) => p.progress)).to.deep.equal([1, 2, 3]);

    expect(server.seen.slice(0, 3)).to.deep.equal(['POST /sse', 'GET /sse', 'POST /messages']);
    const get = sent.find((r) => r.method === 'GET')!;
    expect(get.headers.get('accept')).to.equal('text/event-stream');
    const toEndpoint = sent.filter((r) => r.method === 'POST' && r.url.includes('/messages'));
    expect(toEndpoint.map((r) => r.json.method)).to.deep.equal(['initialize', 'notifications/initialized', 'tools/call', 'tools/call']);
    for (const r of toEndpoint) expect(r.headers.has('mcp-session-id')).to.equal(false);

    await client.close();
    expect(states.at(-1)).to.deep.include({ phase: 'closed' });
    expect(sent.filter((r) => r.method === 'DELETE')).to.have.length(0);
  });

  it('[SSE-004] works as a transport of its own (createLegacySseClientTransport)', async () => {
    const transport = createLegacySseClientTransport(server.url);
    const client = newClient(['2024-11-05']);
    await client.connect(transport);
    expect(transport.endpoint?.pathname).to.equal('/messages');
    expect(firstText(await client.request('tools/call', call('echo', { text: 'direct' })))).to.equal('direct');
    await client.close();
  });

  it('fails with both errors when the URL speaks neither transport', async () => {
    const transport = createStreamableHttpClientTransport(server.url.replace('/sse', '/nothing'));
    const client = newClient();
    const error = await rejectionOf(client.connect(transport));
    expect(error.message).to.include('speaks neither transport').and.include('HTTP 404');
    expect(transport.mode).to.equal('streamable');
  });
});
