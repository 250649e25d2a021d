/**
 * The server the official conformance suite (`@modelcontextprotocol/conformance` 0.1.16, server
 * mode) runs against: every fixture its 32 server scenarios call, with the names and values its
 * checks look for. Built with the public API only (createMcpServer, createStreamableHttpHandler,
 * listen).
 *
 *   node dist/examples/conformance-server.js --port 3001    # serves http://127.0.0.1:3001/mcp
 *
 * Stateful Streamable HTTP with an event store: every request is answered on an SSE stream that
 * starts with a priming event (`retry: 5000`), so a stream closed early (`test_reconnection`) is
 * resumed with GET + Last-Event-ID. Host/Origin validation (DNS rebinding protection) is on.
 */
import { listen } from '../lib/http/listen.js';
import { createMcpServer } from '../lib/mcp-server.js';
import type { ServerSession } from '../lib/server.js';
import { audio, embeddedResource, image, text } from '../lib/server-features/content.js';
import type { FeatureContext } from '../lib/server-features/context.js';
import { MemoryEventStore, createStreamableHttpHandler } from '../streams/streamable-http-server.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A short silent WAV (8 kHz, 16-bit mono, 10 ms). */
function silentWav(samples = 80, rate = 8000): Uint8Array {
  const data = samples * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVE', 8, 'ascii');
  b.write('fmt ', 12, 'ascii');
  b.writeUInt32LE(16, 16); // fmt chunk size
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28); // byte rate
  b.writeUInt16LE(2, 32); // block align
  b.writeUInt16LE(16, 34); // bits per sample
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(data, 40);
  return b;
}
const WAV = silentWav();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const port = Number(option('--port') ?? process.env.PORT ?? 3001);
const host = option('--host') ?? '127.0.0.1';
const verbose = process.argv.includes('--verbose');

const mcp = createMcpServer({
  info: { name: 'mcp-actors-conformance-server', version: '0.1.0' },
  instructions: 'The fixtures of the MCP conformance suite: test_* tools, test://* resources and test_* prompts.',
  capabilities: {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  },
});

// ------------------------------------------------------------------------------------------ tools

mcp.registerTool('test_simple_text', { description: 'Returns a simple text response (callable without arguments).' }, () =>
  'This is a simple text response for testing.',
);

mcp.registerTool('test_image_content', { description: 'Returns a 1x1 PNG image.' }, () => [image(PNG, 'image/png')]);

mcp.registerTool('test_audio_content', { description: 'Returns a short silent WAV clip.' }, () => [audio(WAV, 'audio/wav')]);

mcp.registerTool('test_embedded_resource', { description: 'Returns an embedded text resource.' }, () => [
  embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' }),
]);

mcp.registerTool('test_multiple_content_types', { description: 'Returns text, an image and an embedded resource.' }, () => [
  text('Multiple content types test:'),
  image(PNG, 'image/png'),
  embeddedResource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
]);

mcp.registerTool('test_error_handling', { description: 'Always fails: the error comes back as a result with isError: true.' }, () => {
  throw new Error('This tool intentionally returns an error for testing');
});

mcp.registerTool('test_tool_with_logging', { description: 'Sends three log messages, about 50 ms apart, while it runs.' }, async (_args, ctx) => {
  ctx.log.info('Tool execution started');
  await sleep(50);
  ctx.log.info('Tool processing data');
  await sleep(50);
  ctx.log.info('Tool execution completed');
  return 'Tool with logging executed successfully';
});

mcp.registerTool('test_tool_with_progress', { description: 'Reports progress 0, 50 and 100 of 100, about 50 ms apart.' }, async (_args, ctx) => {
  ctx.progress(0, 100, 'Starting');
  await sleep(50);
  ctx.progress(50, 100, 'Halfway');
  await sleep(50);
  ctx.progress(100, 100, 'Done');
  return `Progress tool completed (token ${JSON.stringify(ctx.meta?.progressToken ?? null)})`;
});

mcp.registerTool(
  'test_sampling',
  {
    description: "Asks the client's model to answer a prompt (sampling/createMessage) and returns its answer.",
    inputSchema: { type: 'object', properties: { prompt: { type: 'string', description: 'The prompt to send to the model' } }, required: ['prompt'] },
  },
  async (args, ctx) => {
    const result = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }], maxTokens: 100 });
    const blocks = Array.isArray(result.content) ? result.content : [result.content];
    const answer = blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('');
    return `LLM response: ${answer}`;
  },
);

mcp.registerTool(
  'test_elicitation',
  {
    description: 'Asks the user for information (elicitation/create) and returns what they answered.',
    inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'The message to show the user' } }, required: ['message'] },
  },
  async (args, ctx) => {
    const result = await ctx.elicit({
      message: String(args.message),
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "The user's name" },
          email: { type: 'string', description: "The user's email address", format: 'email' },
        },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  },
);

mcp.registerTool(
  'test_elicitation_sep1034_defaults',
  { description: 'Asks for a form whose fields all have defaults (SEP-1034).' },
  async (_args, ctx) => {
    const result = await ctx.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  },
);

mcp.registerTool(
  'test_elicitation_sep1330_enums',
  { description: 'Asks for a form with every enum variant: untitled, titled, legacy, multi-select (SEP-1330).' },
  async (_args, ctx) => {
    const result = await ctx.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy enumNames)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select one or more options',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select one or more options with titles',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  },
);

mcp.registerTool(
  'json_schema_2020_12_tool',
  {
    description: 'Takes arguments described by a JSON Schema 2020-12 document ($schema, $defs, $ref), listed verbatim.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  },
  (args) => `Received: ${JSON.stringify(args)}`,
);

mcp.registerTool(
  'test_reconnection',
  { description: 'Closes its SSE stream before answering, so the client resumes it with Last-Event-ID (SEP-1699).' },
  async (_args, ctx: FeatureContext) => {
    const closed = http.closeSseStream(ctx.session as ServerSession, ctx.requestId);
    if (verbose) console.error(`test_reconnection: stream of request ${JSON.stringify(ctx.requestId)} closed early: ${closed}`);
    await sleep(100);
    return 'Reconnection test completed successfully';
  },
);

// -------------------------------------------------------------------------------------- resources

mcp.registerResource(
  'Static Text Resource',
  'test://static-text',
  { description: 'A static text resource', mimeType: 'text/plain' },
  (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
);

mcp.registerResource(
  'Static Binary Resource',
  'test://static-binary',
  { description: 'A static binary resource (a 1x1 PNG)', mimeType: 'image/png' },
  (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: PNG }] }),
);

let watchedTicks = 0;
mcp.registerResource(
  'Watched Resource',
  'test://watched-resource',
  { description: 'A resource that changes every 3 seconds (subscribe to hear about it)', mimeType: 'text/plain' },
  (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: `Watched resource content, revision ${watchedTicks}` }] }),
);
setInterval(() => {
  watchedTicks++;
  mcp.resources.notifyUpdated('test://watched-resource');
}, 3000).unref();

mcp.registerResourceTemplate(
  'Template Resource',
  'test://template/{id}/data',
  {
    description: 'Data for any id',
    mimeType: 'application/json',
    complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
  },
  (uri, variables) => {
    const id = String(variables.id);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
  },
);

// ---------------------------------------------------------------------------------------- prompts

mcp.registerPrompt('test_simple_prompt', { description: 'A simple prompt without arguments' }, () => 'This is a simple prompt for testing.');

mcp.registerPrompt(
  'test_prompt_with_arguments',
  {
    description: 'A prompt with two required arguments',
    arguments: [
      {
        name: 'arg1',
        description: 'First test argument',
        required: true,
        complete: (value) => ['testValue1', 'testValue2', 'testValue3'].filter((v) => v.startsWith(value)),
      },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  (args) => `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
);

mcp.registerPrompt(
  'test_prompt_with_embedded_resource',
  {
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  (args) => [
    {
      role: 'user',
      content: embeddedResource({ uri: String(args.resourceUri), mimeType: 'text/plain', text: 'Embedded resource content for testing.' }),
    },
    { role: 'user', content: text('Please process the embedded resource above.') },
  ],
);

mcp.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => [
  { role: 'user', content: image(PNG, 'image/png') },
  { role: 'user', content: text('Please analyze the image above.') },
]);

// ------------------------------------------------------------------------------------------- HTTP

const http = createStreamableHttpHandler(mcp.server, {
  // Every request gets a primed, resumable SSE stream; clients wait 5 s before reconnecting.
  responseMode: 'sse',
  retryMs: 5000,
  eventStore: new MemoryEventStore({ maxEventsPerSession: 1024 }),
  // DNS rebinding protection: only loopback names in Host (Origin, when sent, must be loopback too).
  allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
  onError: (e) => console.error(`conformance-server: ${e.message}`),
});

if (verbose) {
  mcp.sessions$.subscribe((session) => {
    session.frames$.subscribe((f) => console.error(`${f.direction === 'in' ? '←' : '→'} ${JSON.stringify(f.frame).slice(0, 200)}`));
  });
}

const server = await listen(http, { port, host, logger: (line) => console.error(line) });

const shutdown = () => {
  void server.close().then(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
