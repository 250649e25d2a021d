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
import { McpError } from '../lib/errors.js';
import { listen } from '../lib/http/listen-port.js';
import { ErrorCode } from '../lib/jsonrpc/error-codes.js';
import { startTask } from '../lib/tasks/modern-tasks.js';
import { createMcpServer } from '../lib/mcp-server.js';
import type { ServerSession } from '../lib/server.js';
import { audio, embeddedResource, image, text } from '../lib/server-features/content.js';
import type { FeatureContext } from '../lib/server-features/feature-context.js';
import type { ElicitRequestedSchema } from '../lib/protocol/schema/elicitation.js';
import { MemoryEventStore, createStreamableHttpHandler } from '../lib/server-bindings/streamable-http-server.js';

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
        address: { $anchor: 'address', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
      // The SEP-2106 vocabulary (2026-07-28): composition and conditionals, listed as written.
      allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }] }],
      if: { properties: { name: { const: 'resident' } } },
      then: { required: ['address'] },
      else: {},
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

// ------------------------------------------------------------------ 2026-07-28 (conformance-next)
// The fixtures the 0.2.0-alpha.12 suite's 2026-07-28 scenarios call, served by the same
// registrations in both eras. A handler asks with ctx.elicit/sample/listRoots: a session gets a
// server-to-client request, a modern request an input-required round (the keys are the suite's).

const nameSchema: ElicitRequestedSchema = {
  type: 'object',
  properties: { name: { type: 'string', description: 'Your name' } },
  required: ['name'],
};

mcp.registerTool('test_missing_capability', { description: 'Needs sampling: a client that did not declare it gets -32021.' }, async (_args, ctx) => {
  const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 });
  return `Sampled: ${JSON.stringify(r.content).slice(0, 100)}`;
});

mcp.registerTool('test_streaming_elicitation', { description: 'Streams progress and answers; never sends the client a request on the response stream.' }, async (_args, ctx) => {
  ctx.progress(1, 2, 'Working');
  await sleep(10);
  return 'Streaming elicitation fixture done';
});

mcp.registerTool('test_logging_tool', { description: 'Logs at info while it runs (only to requests that set a log level).' }, async (_args, ctx) => {
  ctx.log.info('test_logging_tool: started');
  await sleep(10);
  ctx.log.info('test_logging_tool: done');
  return 'Logged';
});

let triggered = 0;
mcp.registerTool('test_trigger_tool_change', { description: 'Registers one more tool: tools/list_changed goes to listeners.' }, () => {
  triggered++;
  mcp.registerTool(`test_dynamic_tool_${triggered}`, { description: 'Added by test_trigger_tool_change' }, () => 'dynamic');
  return `Registered test_dynamic_tool_${triggered}`;
});

mcp.registerTool('test_trigger_prompt_change', { description: 'Registers one more prompt: prompts/list_changed goes to listeners.' }, () => {
  triggered++;
  mcp.registerPrompt(`test_dynamic_prompt_${triggered}`, { description: 'Added by test_trigger_prompt_change' }, () => [{ role: 'user', content: text('dynamic') }]);
  return `Registered test_dynamic_prompt_${triggered}`;
});

mcp.registerTool('test_input_required_result_elicitation', { description: "Asks the user's name (input key user_name) and greets them." }, async (_args, ctx) => {
  const r = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { inputKey: 'user_name' });
  return r.action === 'accept' ? `Hello, ${String(r.content?.name)}!` : `The user chose ${r.action}`;
});

mcp.registerTool('test_input_required_result_sampling', { description: "Asks the client's model (input key llm_answer)." }, async (_args, ctx) => {
  const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 50 }, { inputKey: 'llm_answer' });
  return `Model said: ${JSON.stringify(r.content).slice(0, 200)}`;
});

mcp.registerTool('test_input_required_result_list_roots', { description: "Asks for the client's roots (input key client_roots)." }, async (_args, ctx) => {
  const r = await ctx.listRoots({ inputKey: 'client_roots' });
  return `Roots: ${r.roots.map((root) => root.uri).join(', ') || '(none)'}`;
});

mcp.registerTool('test_input_required_result_request_state', { description: 'One input and a signed requestState carrying the round.' }, async (_args, ctx) => {
  const r = await ctx.elicit({ message: 'Confirm to go on', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { inputKey: 'confirmation' });
  return `Confirmed: ${r.action}`;
});

mcp.registerTool('test_input_required_result_multiple_inputs', { description: 'Asks for elicitation, sampling and roots at once.' }, async (_args, ctx) => {
  const [who, llm, roots] = await Promise.all([
    ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { inputKey: 'user_name' }),
    ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Pick a colour' } }], maxTokens: 20 }, { inputKey: 'llm_answer' }),
    ctx.listRoots({ inputKey: 'client_roots' }),
  ]);
  return `name=${who.action === 'accept' ? String(who.content?.name) : who.action}; model=${JSON.stringify(llm.content).slice(0, 60)}; roots=${roots.roots.length}`;
});

mcp.registerTool('test_input_required_result_multi_round', { description: 'Two rounds: step1, then step2.' }, async (_args, ctx) => {
  const first = await ctx.elicit({ message: 'Step 1: your name?', requestedSchema: nameSchema }, { inputKey: 'step1' });
  const second = await ctx.elicit({ message: 'Step 2: your name again?', requestedSchema: nameSchema }, { inputKey: 'step2' });
  return `step1=${first.action}, step2=${second.action}`;
});

mcp.registerTool('test_input_required_result_tampered_state', { description: 'A round whose requestState is signed: a tampered one is refused.' }, async (_args, ctx) => {
  const r = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { inputKey: 'user_name' });
  return `Hello, ${r.action === 'accept' ? String(r.content?.name) : r.action}`;
});

mcp.registerTool('test_input_required_result_capabilities', { description: 'Asks only for what the request declared (elicitation, else sampling).' }, async (_args, ctx) => {
  const caps = ctx.session.peerCapabilities ?? {};
  if (caps.elicitation) {
    const r = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { inputKey: 'user_name' });
    return `Elicited: ${r.action}`;
  }
  if (caps.sampling) {
    const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say a name' } }], maxTokens: 20 }, { inputKey: 'llm_answer' });
    return `Sampled: ${JSON.stringify(r.content).slice(0, 60)}`;
  }
  return 'The client declared neither elicitation nor sampling: nothing to ask';
});

mcp.registerTool(
  'test_x_mcp_header',
  {
    description: 'Its region parameter travels in the Mcp-Param-Region header too.',
    inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } as { type: 'string' } }, required: ['region'] },
  },
  (args) => `Region: ${String(args.region)}`,
);

mcp.registerPrompt('test_input_required_result_prompt', { description: 'Asks for context (input key user_context) before it builds its messages.' }, async (_args, ctx) => {
  const r = await ctx.elicit({ message: 'What context should the prompt use?', requestedSchema: { type: 'object', properties: { context: { type: 'string' } } } }, { inputKey: 'user_context' });
  const context = r.action === 'accept' ? String(r.content?.context ?? '') : '(none)';
  return [{ role: 'user', content: text(`Use this context: ${context}`) }];
});

// ------------------------------------------------- tasks extension (io.modelcontextprotocol/tasks)

/** Sleep `ms`, or reject when `signal` aborts (a cancelled task stops at once). */
const sleepUnless = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

mcp.registerTool(
  'greet',
  { description: 'Greets by name, synchronously (never a task).', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } },
  (args) => `Hello, ${String(args.name ?? 'World')}!`,
);

mcp.registerTool(
  'slow_compute',
  {
    description: 'Sleeps `seconds` seconds, then reports; a task for clients with the tasks extension.',
    inputSchema: { type: 'object', properties: { seconds: { type: 'number' }, label: { type: 'string' } } },
    execution: { taskSupport: 'optional' },
  },
  async (args, ctx) => {
    const seconds = typeof args.seconds === 'number' && args.seconds > 0 ? args.seconds : 0;
    if (seconds > 0) await sleepUnless(seconds * 1000, ctx.signal);
    return `Computed ${String(args.label ?? 'result')} after ${seconds} s`;
  },
);

mcp.registerTool(
  'failing_job',
  { description: 'Runs only as a task; reports a tool error after about a second.', execution: { taskSupport: 'required' } },
  async (_args, ctx) => {
    await sleepUnless(1000, ctx.signal);
    throw new Error('The job failed (as it always does)');
  },
);

mcp.registerTool(
  'protocol_error_job',
  { description: 'A task that ends in a JSON-RPC (protocol) error: the task fails.', execution: { taskSupport: 'optional' } },
  async (_args, ctx) => {
    await sleepUnless(300, ctx.signal);
    throw new McpError(ErrorCode.InternalError, 'The job hit an internal error');
  },
);

mcp.registerTool(
  'confirm_delete',
  {
    description: 'A task that asks the user to confirm deleting a file (through tasks/update).',
    inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
    execution: { taskSupport: 'optional' },
  },
  async (args, ctx) => {
    await startTask(ctx);
    const r = await ctx.elicit({ message: `Delete ${String(args.filename)}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } });
    return r.action === 'accept' && r.content?.confirm === true ? `Deleted ${String(args.filename)}` : `Kept ${String(args.filename)}`;
  },
);

mcp.registerTool(
  'multi_input',
  { description: 'A task that asks two questions at once.', execution: { taskSupport: 'optional' } },
  async (_args, ctx) => {
    await startTask(ctx);
    const schema: ElicitRequestedSchema = { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } };
    const [a, b] = await Promise.all([
      ctx.elicit({ message: 'First: your name?', requestedSchema: schema }, { inputKey: 'first' }),
      ctx.elicit({ message: 'Second: confirm?', requestedSchema: schema }, { inputKey: 'second' }),
    ]);
    return `Answers: ${a.action}, ${b.action}`;
  },
);

mcp.registerTool(
  'test_tool_with_task',
  { description: "Asks the user's name through MRTR (user_name), then goes on as a task.", execution: { taskSupport: 'required' } },
  async (_args, ctx) => {
    const r = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { inputKey: 'user_name' });
    await startTask(ctx);
    await sleepUnless(200, ctx.signal);
    return r.action === 'accept' ? `Hello, ${String(r.content?.name)}, from a task!` : `The user chose ${r.action}`;
  },
);

// ----------------------------------------------------------- skills extension (io.modelcontextprotocol/skills)
// One skill with a subfolder (the directory scenario needs one), served as skill:// resources with
// skills/list, skills/get and resources/directory/read.
mcp.registerSkill({
  files: {
    'SKILL.md': '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\nmetadata:\n  version: "2.1.0"\n---\n\n# PDF processing\n\nRead `references/FORMS.md` before filling a form.\n',
    'references/FORMS.md': '# Forms\n\nFill every field; leave none blank.\n',
  },
});

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
