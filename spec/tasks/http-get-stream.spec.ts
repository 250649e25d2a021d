// Our client (2025-11-25, Streamable HTTP) against a raw server that sends a task's elicitation on
// the standalone GET stream, not on any request's stream: the client answers it there like any
// other server request, with the task named in its answer, and follows the task to its result.
// Polling runs on a simulated clock.
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { RELATED_TASK } from '../../lib/tasks/wire-2025-11-25.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { json, sseEvent, sseStart, startRawServer, type RawServer } from '../fixtures/http-client/raw-server.js';
import { until } from '../streams/http-client-helpers.js';

const task = (status: string) => ({ taskId: 't-1', status, createdAt: '2026-11-27T00:00:00Z', lastUpdatedAt: '2026-11-27T00:00:00Z', ttl: 60_000, pollInterval: 1_000 });

describe('tasks over Streamable HTTP: a task request on the GET stream (raw server)', () => {
  let server: RawServer;
  let client: Client;
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    await server?.close();
  });

  it('[TASK-024] answers a task\'s elicitation that arrives on the standalone GET stream, and the task completes', async () => {
    let getStream: ServerResponse | undefined;
    let answer: any;
    server = await startRawServer((r) => {
      const m = r.json;
      if (r.method === 'GET') {
        sseStart(r.res);
        getStream = r.res;
        return;
      }
      if (r.method === 'DELETE') return void r.res.writeHead(200).end();
      if (m?.method === 'initialize') {
        const capabilities = { tools: {}, tasks: { requests: { tools: { call: {} } } } };
        return json(r.res, 200, { jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities, serverInfo: { name: 'raw', version: '1' } } }, { 'mcp-session-id': 's1' });
      }
      if (m?.method === 'notifications/initialized' || m?.method === 'notifications/cancelled') return void r.res.writeHead(202).end();
      if (m?.method === 'tools/list') return json(r.res, 200, { jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'deploy', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }] } });
      if (m?.method === 'tools/call') {
        json(r.res, 200, { jsonrpc: '2.0', id: m.id, result: { task: task('working') } });
        // The task's question goes out on the GET stream, as the server sees fit.
        const params = { message: 'Region?', requestedSchema: { type: 'object', properties: { region: { type: 'string' } } }, _meta: { [RELATED_TASK]: { taskId: 't-1' } } };
        sseEvent(getStream!, { id: 'g1', data: { jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params } });
        return;
      }
      if (m?.id === 'srv-1' && m.method === undefined) {
        answer = m;
        return void r.res.writeHead(202).end();
      }
      if (m?.method === 'tasks/get') return json(r.res, 200, { jsonrpc: '2.0', id: m.id, result: task(answer ? 'completed' : 'working') });
      if (m?.method === 'tasks/result') {
        const text = `deployed to ${String(answer?.result?.content?.region)}`;
        return json(r.res, 200, { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text }], _meta: { [RELATED_TASK]: { taskId: 't-1' } } } });
      }
      r.res.writeHead(400).end();
    });
    const clock = new ManualClock(0);
    client = new Client({ era: 'legacy', info: { name: 'c', version: '1' }, clock });
    const asked: string[] = [];
    client.onElicitation({
      form: (req) => {
        asked.push(req.message);
        return { action: 'accept', content: { region: 'eu-west' } };
      },
    });
    await client.connect(createStreamableHttpClientTransport(server.url, { clock }));
    await until(() => getStream !== undefined, 'the GET stream');
    await client.listTools();
    const handle = await client.callToolAsTask('deploy', {});
    await until(() => answer !== undefined, 'the answer to the elicitation');
    expect(asked).to.deep.equal(['Region?']);
    expect(answer.result).to.deep.equal({ action: 'accept', content: { region: 'eu-west' }, _meta: { [RELATED_TASK]: { taskId: 't-1' } } });
    const result = handle.result();
    for (let i = 0; i < 5; i++) {
      await until(() => true, 'a turn');
      clock.advance(1_000);
    }
    expect((await result).content).to.deep.equal([{ type: 'text', text: 'deployed to eu-west' }]);
  });
});
