// The official SDK 1.32.2 client (its experimental tasks support) against our McpServer's tasks.
import { expect } from 'chai';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Frame } from '../../lib/jsonrpc/message.js';
import { createMemoryPair, type MemoryTransport } from '../../streams/memory.js';
import { deferred, taskServer } from './helpers.js';

class Bridge implements SdkTransport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(private readonly end: MemoryTransport) {}
  async start(): Promise<void> {
    this.end.inbound$.subscribe({ next: (f) => this.onmessage?.(f as JSONRPCMessage), complete: () => this.onclose?.() });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.end.send(message as Frame);
  }
  async close(): Promise<void> {
    await this.end.close();
  }
}

async function sdkClient(mcp: ReturnType<typeof taskServer>['mcp'], withElicitation = false): Promise<SdkClient> {
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const client = new SdkClient({ name: 'sdk', version: '1.32.2' }, { capabilities: withElicitation ? { elicitation: { form: {} } } : {} });
  if (withElicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      expect(req.params._meta?.['io.modelcontextprotocol/related-task']).to.have.property('taskId');
      return { action: 'accept', content: { answer: 'forty-two' } };
    });
  }
  await client.connect(new Bridge(b));
  return client;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const m of it) out.push(m);
  return out;
}

describe('tasks: the official SDK 1.32.2 client against our server', () => {
  it('callToolStream: taskCreated, taskStatus…, result; getTask, listTasks and cancelTask parse', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('build', { execution: { taskSupport: 'required' } }, async (_a, ctx) => {
      await (ctx as any).status('linking');
      return 'built';
    });
    const hold = deferred();
    mcp.registerTool('hang', { execution: { taskSupport: 'optional' } }, () => hold.promise.then(() => 'never seen'));
    const client = await sdkClient(mcp);
    const tools = await client.listTools();
    expect(tools.tools.find((t) => t.name === 'build')!.execution).to.deep.equal({ taskSupport: 'required' });
    const messages: any[] = await collect(client.experimental.tasks.callToolStream({ name: 'build', arguments: {} }));
    expect(messages[0].type).to.equal('taskCreated');
    expect(messages[messages.length - 1]).to.deep.include({ type: 'result' });
    expect(messages[messages.length - 1].result.content).to.deep.equal([{ type: 'text', text: 'built' }]);
    const taskId = messages[0].task.taskId;
    expect((await client.experimental.tasks.getTask(taskId)).status).to.equal('completed');
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).to.include(taskId);

    // Cancel a running task, then a finished one (-32602).
    const stream = client.experimental.tasks.callToolStream({ name: 'hang', arguments: {} }, undefined, { task: {} });
    const first: any = (await stream.next()).value;
    expect(first.type).to.equal('taskCreated');
    const cancelled = await client.experimental.tasks.cancelTask(first.task.taskId);
    expect(cancelled.status).to.equal('cancelled');
    const refused = await client.experimental.tasks.cancelTask(taskId).catch((e: unknown) => e);
    expect((refused as { code: number }).code).to.equal(-32602);
    hold.resolve();
    await stream.return(undefined);
    await client.close();
  });

  it('input_required: the SDK opens tasks/result, answers the elicitation there, and gets the final result', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('ask', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'What is the answer?', requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } } });
      return `the answer is ${(r.content as any).answer}`;
    });
    const client = await sdkClient(mcp, true);
    await client.listTools();
    const messages: any[] = await collect(client.experimental.tasks.callToolStream({ name: 'ask', arguments: {} }, undefined, { task: {} }));
    const last = messages[messages.length - 1];
    expect(last.type).to.equal('result');
    expect(last.result.content).to.deep.equal([{ type: 'text', text: 'the answer is forty-two' }]);
    await client.close();
  });
});
