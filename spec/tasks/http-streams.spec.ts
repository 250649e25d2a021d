// Tasks keep to Streamable HTTP (TASK-009, TASK-013, TASK-026), raw HTTP against our server: a client
// may drop a tasks/result (or the SSE stream it opened) at any time, which neither cancels the task
// nor loses its result (a later tasks/result gets it); a task's elicitation comes on that stream, and
// the client answers it by a POST of its own (202) after dropping the stream, as the transport
// has every response travel; tasks/get is answered as one JSON response.
import { expect } from 'chai';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post, postHeaders, postStream } from '../fixtures/http-server/raw.js';
import { SERVER_INFO } from '../helpers/raw-peer.js';
import { deferred } from './helpers.js';

const V = '2025-11-25';

describe('tasks over Streamable HTTP: streams a client drops', function () {
  this.timeout(10_000);
  let listening: Listening;
  const go = deferred();
  let ran = 0;

  before(async () => {
    const mcp = createMcpServer({ info: SERVER_INFO });
    mcp.registerTool('build', { execution: { taskSupport: 'optional' } }, async () => {
      await go.promise;
      return `built ${++ran}`;
    });
    mcp.registerTool('deploy', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'Region?', requestedSchema: { type: 'object', properties: { region: { type: 'string' } } } });
      return `deployed to ${(r.content as { region: string }).region}`;
    });
    listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
  });
  after(async () => {
    await listening.close();
  });

  /** A session whose client can answer elicitations; returns the headers of its later requests. */
  async function session(): Promise<Record<string, string>> {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: V, capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } } };
    const res = await post(listening.url, init);
    const h = { 'mcp-session-id': String(res.headers['mcp-session-id']), 'mcp-protocol-version': V };
    expect((await post(listening.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status).to.equal(202);
    return h;
  }

  const createTask = async (h: Record<string, string>, name: string): Promise<string> => {
    const created = await post(listening.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, task: { ttl: 60_000 } } }, h);
    return created.json.result.task.taskId as string;
  };

  it('[TASK-009] [TASK-013] a tasks/result the client drops cancels nothing: tasks/get answers in JSON that the task works on, and a new tasks/result gets the result', async () => {
    const h = await session();
    const taskId = await createTask(h, 'build');
    // The server answers this tasks/result once the task ends; the client goes away before that,
    // once the server has read the whole request.
    const bodyRead = new Promise<void>((resolve) => listening.server.prependOnceListener('request', (req: IncomingMessage) => req.once('end', resolve)));
    const dropped = httpRequest(listening.url, { method: 'POST', headers: { ...postHeaders(h) }, agent: false });
    dropped.on('error', () => undefined);
    dropped.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } }));
    await bodyRead;
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    dropped.destroy();
    const get = await post(listening.url, { jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId } }, h);
    expect(get.headers['content-type']).to.match(/^application\/json/);
    expect(get.json.result.status).to.equal('working');
    go.resolve();
    const result = await post(listening.url, { jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId } }, h);
    expect(result.json.result.content).to.deep.equal([{ type: 'text', text: 'built 1' }]);
    expect(ran).to.equal(1);
    const after = await post(listening.url, { jsonrpc: '2.0', id: 5, method: 'tasks/get', params: { taskId } }, h);
    expect(after.json.result.status).to.equal('completed');
  });

  it('[TASK-026] the task\'s elicitation arrives on the tasks/result stream; the client drops it, POSTs its answer (202), and the task completes', async () => {
    const h = await session();
    const taskId = await createTask(h, 'deploy');
    const waiting = await postStream(listening.url, { jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } }, h);
    await waiting.waitForMessages(1);
    const ask = waiting.messages[0] as { id: number | string; method: string; params: { _meta?: Record<string, { taskId?: string }> } };
    expect(ask.method).to.equal('elicitation/create');
    expect(ask.params._meta?.['io.modelcontextprotocol/related-task']?.taskId).to.equal(taskId);
    waiting.close();
    await waiting.done;
    const status = await post(listening.url, { jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId } }, h);
    expect(status.json.result.status).to.equal('input_required');
    const answered = await post(listening.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { region: 'eu-west' } } }, h);
    expect(answered.status).to.equal(202);
    const result = await post(listening.url, { jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId } }, h);
    const answer = result.headers['content-type']?.startsWith('text/event-stream')
      ? JSON.parse(/^data: (.*)$/m.exec(result.body)![1]!)
      : result.json;
    expect(answer.result.content).to.deep.equal([{ type: 'text', text: 'deployed to eu-west' }]);
  });
});
