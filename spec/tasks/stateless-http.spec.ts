// Tasks on a stateless Streamable HTTP server (2025-11-25): every POST has a session of its own,
// so without authentication the server cannot tell one caller from another. A task created by
// one POST must still be found by the next one (by its id, which cannot be guessed), and no caller
// may list the tasks of the others. Before, each POST's session was the owner: the task was
// created, and every later tasks/get said "not found".
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { SERVER_INFO } from '../helpers/raw-peer.js';
import { initializeRequest, post, type RawResponse } from '../fixtures/http-server/raw.js';
import { deferred } from './helpers.js';

describe('tasks on a stateless Streamable HTTP server without authentication', function () {
  this.timeout(20_000);
  let listening: Listening;
  const go = deferred();
  const headers = { 'mcp-protocol-version': '2025-11-25' };
  const rpc = (id: number, method: string, params: Record<string, unknown>) => post(listening.url, { jsonrpc: '2.0', id, method, params }, headers);

  before(async () => {
    const mcp = createMcpServer({ info: SERVER_INFO });
    mcp.registerTool('build', { execution: { taskSupport: 'optional' } }, async () => {
      await go.promise;
      return 'built';
    });
    listening = await listen(createStreamableHttpHandler(mcp.server, { stateless: true }), { port: 0, logger: false });
  });
  after(async () => {
    go.resolve();
    await listening.close();
  });

  it('[TASK-068] a task created by one POST is polled and its result fetched by later POSTs, by its id', async () => {
    const created = await rpc(1, 'tools/call', { name: 'build', arguments: {}, task: { ttl: 60_000 } });
    expect(created.status).to.equal(200);
    const taskId = created.json.result.task.taskId as string;
    expect(taskId).to.match(/^[0-9a-f]{32}$/);

    const polled = await rpc(2, 'tasks/get', { taskId });
    expect(polled.json.error, JSON.stringify(polled.json.error)).to.equal(undefined);
    expect(polled.json.result).to.include({ taskId, status: 'working' });

    go.resolve();
    const result = await rpc(3, 'tasks/result', { taskId });
    expect(result.json.result.content).to.deep.equal([{ type: 'text', text: 'built' }]);
    expect((await rpc(4, 'tasks/get', { taskId })).json.result.status).to.equal('completed');
    // A made-up id finds nothing.
    expect((await rpc(5, 'tasks/get', { taskId: '0'.repeat(32) })).json.error.code).to.equal(-32602);
  });

  it('lists no tasks to callers it cannot tell apart, and says why', async () => {
    await rpc(6, 'tools/call', { name: 'build', arguments: {}, task: {} });
    const listed = await rpc(7, 'tasks/list', {});
    expect(listed.json.result).to.equal(undefined);
    expect(listed.json.error.code).to.equal(-32600);
    expect(listed.json.error.message).to.match(/cannot tell its callers apart.*keep the taskId/);
  });

  it('[TASK-069] declares no tasks.list to them when they initialize, where a stateful server declares it', async () => {
    // The answer as JSON, or as the one event of an SSE stream.
    const answer = (r: RawResponse) => r.json ?? JSON.parse(/^data: (.*)$/m.exec(r.body)![1]!);
    const stateless = answer(await post(listening.url, initializeRequest('2025-11-25', 8), headers));
    expect(stateless.result.capabilities.tasks).to.have.property('requests');
    expect(stateless.result.capabilities.tasks).to.not.have.property('list');
    const mcp = createMcpServer({ info: SERVER_INFO });
    mcp.registerTool('build', { execution: { taskSupport: 'optional' } }, () => 'built');
    const stateful = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    try {
      const declared = answer(await post(stateful.url, initializeRequest('2025-11-25', 9), headers));
      expect(declared.result.capabilities.tasks).to.have.property('list');
    } finally {
      await stateful.close();
    }
  });
});

