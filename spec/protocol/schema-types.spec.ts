// Type-level tests of the schema: sample messages of each revision must compile, and the
// `@ts-expect-error` lines must NOT compile (tsc reports an unused directive if they do).
// `npm run typecheck` is what runs the compile-time half; mocha runs the runtime half, which
// ties the samples to the method table.
import { expect } from 'chai';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcSuccess } from '../../lib/jsonrpc/message.js';
import { isMethodInRevision, maySend, methodInfo } from '../../lib/protocol/methods.js';
import { REVISION_FEATURES, SUPPORTED_REVISIONS, type Revision } from '../../lib/protocol/revisions.js';
import {
  LOGGING_LEVELS,
  TASK_STATUSES,
  type AudioContent,
  type CallToolRequest,
  type CallToolResult,
  type ClientNotification,
  type ClientRequest,
  type CompleteRequest,
  type ContentBlockIn,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type ElicitationCompleteNotification,
  type GetPromptResult,
  type InitializeRequest,
  type InitializeResult,
  type ListResourcesResult,
  type ListToolsResult,
  type LoggingMessageNotification,
  type ParamsOf,
  type ProgressNotification,
  type ResourceLink,
  type ResultOf,
  type SamplingContentIn,
  type ServerNotification,
  type ServerRequest,
  type TaskStatusNotification,
  type ToolResultContent,
  type ToolUseContent,
  type UrlElicitationRequiredErrorData,
} from '../../lib/protocol/schema.js';

// ── compile-time helpers ────────────────────────────────────────────────────────────────
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
// Mutual assignability: `Equal` misjudges when applied inside a generic alias, this does not.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Whether every `T` is one of union `U`. */
type Includes<U, T> = [T] extends [U] ? true : false;

// The per-revision content unions agree with the revision table's rows.
type Row<F extends keyof typeof REVISION_FEATURES, R extends Revision> = (typeof REVISION_FEATURES)[F][R];
type ContentAgrees<R extends Revision> = Same<
  [Includes<ContentBlockIn<R>, AudioContent>, Includes<ContentBlockIn<R>, ResourceLink>],
  [Row<'audioContent', R>, Row<'resourceLinks', R>]
>;
type SamplingAgrees<R extends Revision> = Same<
  [Includes<SamplingContentIn<R>, AudioContent>, Includes<SamplingContentIn<R>, ToolUseContent | ToolResultContent>],
  [Row<'audioContent', R>, Row<'samplingTools', R>]
>;
export type _RevisionContentChecks = [
  Expect<ContentAgrees<'2024-11-05'>>,
  Expect<ContentAgrees<'2025-03-26'>>,
  Expect<ContentAgrees<'2025-06-18'>>,
  Expect<ContentAgrees<'2025-11-25'>>,
  Expect<SamplingAgrees<'2024-11-05'>>,
  Expect<SamplingAgrees<'2025-03-26'>>,
  Expect<SamplingAgrees<'2025-06-18'>>,
  Expect<SamplingAgrees<'2025-11-25'>>,
];

// The method maps line up with the message types.
export type _MapChecks = [
  Expect<Equal<ParamsOf<'tools/call'>, CallToolRequest['params']>>,
  Expect<Equal<ResultOf<'tools/call'>, CallToolResult>>,
  Expect<Equal<ParamsOf<'elicitation/create'>, ElicitRequest['params']>>,
  Expect<Equal<ResultOf<'initialize'>, InitializeResult>>,
  Expect<Equal<(typeof LOGGING_LEVELS)[0], 'debug'>>,
];

// ── 2024-11-05 ──────────────────────────────────────────────────────────────────────────
const init2024 = {
  method: 'initialize',
  params: {
    protocolVersion: '2024-11-05',
    capabilities: { roots: { listChanged: true }, sampling: {}, experimental: { trace: {} } },
    clientInfo: { name: 'probe', version: '0.1.0' },
  },
} satisfies InitializeRequest;

const initResult2024 = {
  protocolVersion: '2024-11-05',
  capabilities: { logging: {}, prompts: { listChanged: true }, resources: { subscribe: true }, tools: {} },
  serverInfo: { name: 'srv', version: '1.0.0' },
  instructions: 'Call echo.',
} satisfies InitializeResult;

const toolResult2024: CallToolResult = {
  content: [
    { type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5 } },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'resource', resource: { uri: 'file:///a.txt', text: 'a' } },
  ],
  isError: false,
};

const prompt2024: GetPromptResult = {
  messages: [{ role: 'user', content: { type: 'resource', resource: { uri: 'x:/b', blob: 'AA==' } } }],
};
const contentIn2024: ContentBlockIn<'2024-11-05'> = { type: 'text', text: 'ok' };
// @ts-expect-error audio content did not exist in 2024-11-05
const audioIn2024: ContentBlockIn<'2024-11-05'> = { type: 'audio', data: 'AA', mimeType: 'audio/wav' };

const sampling2024 = {
  method: 'sampling/createMessage',
  params: {
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
    modelPreferences: { hints: [{ name: 'sonnet' }], speedPriority: 0.2 },
    includeContext: 'thisServer',
    maxTokens: 100,
  },
} satisfies CreateMessageRequest;

const complete2024 = {
  method: 'completion/complete',
  params: { ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: 'sr' } },
} satisfies CompleteRequest;

const log2024 = {
  method: 'notifications/message',
  params: { level: 'warning', logger: 'db', data: { rows: 3 } },
} satisfies LoggingMessageNotification;
// @ts-expect-error 'warn' is not an RFC 5424 level name
const badLevel: LoggingMessageNotification = { method: 'notifications/message', params: { level: 'warn', data: 1 } };

// ── 2025-03-26 ──────────────────────────────────────────────────────────────────────────
const initResult2025a = {
  protocolVersion: '2025-03-26',
  capabilities: { completions: {}, tools: { listChanged: true } },
  serverInfo: { name: 'srv', version: '1.0.0' },
} satisfies InitializeResult;

const tools2025a: ListToolsResult = {
  tools: [
    {
      name: 'delete_file',
      description: 'Deletes a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
      annotations: { title: 'Delete', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  ],
  nextCursor: 'page-2',
};
// @ts-expect-error a tool's input schema must be an object schema
const badTool: ListToolsResult = { tools: [{ name: 'x', inputSchema: { type: 'string' } }] };

const progress2025a = {
  method: 'notifications/progress',
  params: { progressToken: 'tok', progress: 3, total: 10, message: 'Copying' },
} satisfies ProgressNotification;

const audioIn2025a: ContentBlockIn<'2025-03-26'> = { type: 'audio', data: 'AA', mimeType: 'audio/wav' };
// @ts-expect-error resource links arrived in 2025-06-18
const linkIn2025a: ContentBlockIn<'2025-03-26'> = { type: 'resource_link', uri: 'file:///a', name: 'a' };

// ── 2025-06-18 ──────────────────────────────────────────────────────────────────────────
const structured2025b: CallToolResult = {
  content: [
    { type: 'text', text: '{"temp":21}' },
    { type: 'resource_link', uri: 'file:///log.txt', name: 'log', title: 'Build log', mimeType: 'text/plain' },
  ],
  structuredContent: { temp: 21 },
};

const resources2025b: ListResourcesResult = {
  resources: [
    {
      uri: 'file:///readme.md',
      name: 'readme',
      title: 'README',
      annotations: { lastModified: '2025-01-12T15:00:58Z' },
      size: 1024,
      _meta: { 'example.com/origin': 'disk' },
    },
  ],
};

const elicit2025b = {
  method: 'elicitation/create',
  params: {
    message: 'Your GitHub user name?',
    requestedSchema: {
      type: 'object',
      properties: {
        user: { type: 'string', minLength: 1 },
        age: { type: 'integer', minimum: 0 },
        colour: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
        subscribe: { type: 'boolean', default: false },
      },
      required: ['user'],
    },
  },
} satisfies ElicitRequest;
const elicitAnswer2025b: ElicitResult = { action: 'accept', content: { user: 'octocat', age: 12, subscribe: true } };
const elicitNested: ElicitRequest = {
  method: 'elicitation/create',
  // @ts-expect-error form fields are flat primitives, never nested objects
  params: { message: 'm', requestedSchema: { type: 'object', properties: { addr: { type: 'object' } } } },
};

const complete2025b = {
  method: 'completion/complete',
  params: {
    ref: { type: 'ref/prompt', name: 'review', title: 'Code review' },
    argument: { name: 'file', value: 'li' },
    context: { arguments: { repo: 'mcp-actors' } },
  },
} satisfies CompleteRequest;

// ── 2025-11-25 ──────────────────────────────────────────────────────────────────────────
const init2025d = {
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {
      roots: { listChanged: true },
      sampling: { tools: {}, context: {} },
      elicitation: { form: {}, url: {} },
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
    },
    clientInfo: {
      name: 'probe',
      title: 'Probe',
      version: '0.1.0',
      description: 'A test client',
      websiteUrl: 'https://example.com',
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
    },
  },
} satisfies InitializeRequest;

const initResult2025d = {
  protocolVersion: '2025-11-25',
  capabilities: { tasks: { list: {}, requests: { tools: { call: {} } } }, completions: {}, logging: {} },
  serverInfo: { name: 'srv', version: '1.0.0' },
} satisfies InitializeResult;

const urlElicit2025d = {
  method: 'elicitation/create',
  params: {
    mode: 'url',
    message: 'Authorise access to your calendar',
    elicitationId: '550e8400-e29b-41d4-a716-446655440000',
    url: 'https://example.com/connect',
  },
} satisfies ElicitRequest;
// @ts-expect-error a URL-mode elicitation needs its elicitationId
const urlWithoutId: ElicitRequest = { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://x' } };

const formElicit2025d = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Pick',
    requestedSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        one: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }], default: '#f00' },
        many: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
        labelled: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
        email: { type: 'string', format: 'email', default: 'a@b.c' },
        n: { type: 'number', default: 1.5 },
      },
    },
    task: { ttl: 60000 },
  },
} satisfies ElicitRequest;
const multiAnswer: ElicitResult = { action: 'accept', content: { many: ['a', 'b'] } };

const elicitDone = {
  method: 'notifications/elicitation/complete',
  params: { elicitationId: '550e8400-e29b-41d4-a716-446655440000' },
} satisfies ElicitationCompleteNotification;

const urlRequired: UrlElicitationRequiredErrorData = { elicitations: [urlElicit2025d.params] };

const samplingTools2025d = {
  method: 'sampling/createMessage',
  params: {
    messages: [
      { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'weather', input: { city: 'Paris' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: '21C' }], structuredContent: { c: 21 } }],
      },
    ],
    tools: [{ name: 'weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
    toolChoice: { mode: 'auto' },
    maxTokens: 200,
  },
} satisfies CreateMessageRequest;
const samplingAnswer2025d: CreateMessageResult = {
  role: 'assistant',
  content: { type: 'tool_use', id: 'c2', name: 'weather', input: { city: 'Lyon' } },
  model: 'some-model',
  stopReason: 'toolUse',
};
// @ts-expect-error toolChoice modes are auto, required and none
const badChoice: CreateMessageRequest['params']['toolChoice'] = { mode: 'any' };
// @ts-expect-error tool use in sampling arrived in 2025-11-25
const toolUseIn2025b: SamplingContentIn<'2025-06-18'> = { type: 'tool_use', id: 'c', name: 'n', input: {} };

const taskedCall2025d = {
  method: 'tools/call',
  params: { name: 'long_job', arguments: { n: 1 }, task: { ttl: 60000 }, _meta: { progressToken: 7 } },
} satisfies CallToolRequest;
const taskStatus = {
  method: 'notifications/tasks/status',
  params: {
    taskId: 't1',
    status: 'input_required',
    createdAt: '2025-11-25T10:30:00Z',
    lastUpdatedAt: '2025-11-25T10:31:00Z',
    ttl: null,
    pollInterval: 5000,
  },
} satisfies TaskStatusNotification;

const toolWithIcons2025d: ListToolsResult = {
  tools: [
    {
      name: 'draw',
      title: 'Draw',
      icons: [{ src: 'data:image/png;base64,AAAA' }],
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
      outputSchema: { type: 'object', properties: { svg: { type: 'string' } } },
      execution: { taskSupport: 'optional' },
    },
  ],
};

// ── wire form: the typed params and results fit the JSON-RPC layer unchanged ─────────────
const wireInit: JsonRpcRequest = { jsonrpc: '2.0', id: 1, ...init2025d };
const wireResult: JsonRpcSuccess = { jsonrpc: '2.0', id: 1, result: initResult2025d };
const wireNote: JsonRpcNotification = { jsonrpc: '2.0', ...taskStatus };

// ── runtime half: the samples agree with the method table ───────────────────────────────
type Sample = { revision: Revision; from: 'client' | 'server'; message: ClientRequest | ServerRequest | ClientNotification | ServerNotification };
const samples: Sample[] = [
  { revision: '2024-11-05', from: 'client', message: init2024 },
  { revision: '2024-11-05', from: 'server', message: sampling2024 },
  { revision: '2024-11-05', from: 'client', message: complete2024 },
  { revision: '2024-11-05', from: 'server', message: log2024 },
  { revision: '2025-03-26', from: 'server', message: progress2025a },
  { revision: '2025-06-18', from: 'server', message: elicit2025b },
  { revision: '2025-06-18', from: 'client', message: complete2025b },
  { revision: '2025-11-25', from: 'client', message: init2025d },
  { revision: '2025-11-25', from: 'server', message: urlElicit2025d },
  { revision: '2025-11-25', from: 'server', message: formElicit2025d },
  { revision: '2025-11-25', from: 'server', message: elicitDone },
  { revision: '2025-11-25', from: 'server', message: samplingTools2025d },
  { revision: '2025-11-25', from: 'client', message: taskedCall2025d },
  { revision: '2025-11-25', from: 'server', message: taskStatus },
];

// Values that only exist to be type-checked; referenced so that lint sees them used.
const compiledOnly = [
  initResult2024, toolResult2024, prompt2024, contentIn2024, audioIn2024, badLevel,
  initResult2025a, tools2025a, badTool, audioIn2025a, linkIn2025a,
  structured2025b, resources2025b, elicitAnswer2025b, elicitNested,
  initResult2025d, urlWithoutId, multiAnswer, urlRequired, samplingAnswer2025d, badChoice,
  toolUseIn2025b, toolWithIcons2025d, wireInit, wireResult, wireNote,
];

describe('protocol/schema (type-level samples)', () => {
  it('every sample uses a method of its revision that its sender may send', () => {
    for (const { revision, from, message } of samples) {
      const info = methodInfo(message.method);
      expect(info, message.method).to.not.equal(undefined);
      expect(isMethodInRevision(message.method, revision), `${message.method} in ${revision}`).to.equal(true);
      expect(maySend(message.method, from), `${from} sends ${message.method}`).to.equal(true);
    }
  });

  it('covers every revision', () => {
    expect(new Set(samples.map((s) => s.revision))).to.deep.equal(new Set(SUPPORTED_REVISIONS));
  });

  it('samples survive a JSON round trip unchanged', () => {
    for (const v of [...samples.map((s) => s.message), ...compiledOnly]) {
      expect(JSON.parse(JSON.stringify(v))).to.deep.equal(v);
    }
  });

  it('lists logging levels in RFC 5424 order, least severe first', () => {
    expect([...LOGGING_LEVELS]).to.deep.equal([
      'debug',
      'info',
      'notice',
      'warning',
      'error',
      'critical',
      'alert',
      'emergency',
    ]);
  });

  it('lists the task statuses', () => {
    expect([...TASK_STATUSES]).to.deep.equal(['working', 'input_required', 'completed', 'failed', 'cancelled']);
  });
});
