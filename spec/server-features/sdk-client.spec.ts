// The official SDK's client against our McpServer, in process: its strict result schemas (and
// its own outputSchema check) read what we send.
import { expect } from 'chai';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Frame } from '../../lib/jsonrpc/message.js';
import { createMemoryPair, type MemoryTransport } from '../../streams/memory.js';
import { makeServer, settle } from './helpers.js';

/** The SDK's transport shape over one end of our memory pair. */
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

describe('server features: the official SDK client reads what McpServer sends', () => {
  it('tools, structured output, prompts, completion, logging and list_changed', async () => {
    const { mcp, clock } = makeServer();
    mcp.registerTool(
      'weather',
      {
        title: 'Weather',
        inputSchema: z.object({ city: z.string() }),
        outputSchema: z.object({ temperature: z.number(), conditions: z.string() }),
        annotations: { readOnlyHint: true },
      },
      ({ city }, ctx) => {
        ctx.log.info(`looking up ${city}`);
        return { structuredContent: { temperature: 21, conditions: `clear over ${city}` } };
      },
    );
    mcp.registerPrompt(
      'review',
      { arguments: [{ name: 'language', required: true, complete: (v) => ['python', 'rust'].filter((l) => l.startsWith(v)) }] },
      ({ language }) => `Review this ${language}`,
    );
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const sdk = new SdkClient({ name: 'sdk', version: '1.0.0' });
    const changes: unknown[] = [];
    const logs: unknown[] = [];
    sdk.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void changes.push(n));
    sdk.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await sdk.connect(new Bridge(b));

    const { tools } = await sdk.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(['weather']);
    const result = await sdk.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).to.deep.equal({ temperature: 21, conditions: 'clear over Oslo' });
    const bad = await sdk.callTool({ name: 'weather', arguments: { city: 7 } });
    expect(bad.isError).to.equal(true);

    expect((await sdk.getPrompt({ name: 'review', arguments: { language: 'rust' } })).messages[0]!.content).to.deep.equal({ type: 'text', text: 'Review this rust' });
    expect((await sdk.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'py' } })).completion).to.deep.equal({
      values: ['python'],
      total: 1,
      hasMore: false,
    });
    expect(await sdk.setLoggingLevel('warning')).to.deep.equal({});

    mcp.registerTool('another', {}, () => 'x');
    clock.advance(10);
    await settle();
    expect(changes).to.have.length(1);
    expect(logs).to.deep.equal([{ level: 'info', data: 'looking up Oslo' }]);
    await sdk.close();
  });
});
