import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { CapabilityError, McpError } from '../../lib/errors.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import {
  InvalidClientResultError,
  UrlElicitationRequiredError,
  completeElicitation,
  elicit,
  listRoots,
  onRootsChanged,
  sample,
  toolBalanceProblem,
  urlElicitationRequired,
  type ServerElicitationSnapshot,
} from '../../lib/server-features/client-calls.js';
import { Server, type ServerSession } from '../../lib/server.js';
import type { RequestHandlerContext, Session } from '../../lib/session/session.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

type Handler = (params: any) => unknown;

interface Env {
  server: Server;
  session: ServerSession;
  client: Client;
  /** What the client's handlers received, by method. */
  received: Record<string, any[]>;
  /** Notifications the client got. */
  notes: { method: string; params: any }[];
  /** Set the client's answer for a method. */
  answer(method: string, handler: Handler): void;
  /** Run `fn` inside a tools/call handler; its value or error is captured. */
  run<T>(fn: (ctx: RequestHandlerContext) => Promise<T> | T): Promise<{ value?: T; error?: any }>;
  /** Run `fn` as the tools/call handler; what it returns or throws goes to the client. */
  call(fn: (ctx: RequestHandlerContext) => unknown): Promise<JsonObject>;
  /** Requests the server sent for `method`. */
  sent(method: string): any[];
}

async function setup(options: { caps?: Record<string, unknown>; versions?: string[]; server?: Server } = {}): Promise<Env> {
  const server = options.server ?? new Server({ info: SERVER_INFO, capabilities: { tools: {} }, journal: true });
  let current: (ctx: RequestHandlerContext) => unknown = () => ({});
  if (!options.server) server.onRequest('tools/call', async (_p, ctx) => (await current(ctx)) as JsonObject);
  const [a, b] = createMemoryPair();
  const session = (await server.connect(a)) as ServerSession;
  const client = new Client({
    era: 'legacy',
    info: CLIENT_INFO,
    capabilities: options.caps ?? {},
    ...(options.versions && { supportedVersions: options.versions }),
  });
  const received: Record<string, any[]> = {};
  const answers: Record<string, Handler> = {};
  for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
    client.onRequest(method, async (params) => {
      (received[method] ??= []).push(params);
      const h = answers[method];
      if (!h) throw new McpError(-32603, `no answer set for ${method}`);
      return (await h(params)) as JsonObject;
    });
  }
  const notes: { method: string; params: any }[] = [];
  client.onNotification('notifications/elicitation/complete', (params) => void notes.push({ method: 'notifications/elicitation/complete', params }));
  await client.connect(b);
  await session.whenOperating();
  const env: Env = {
    server,
    session,
    client,
    received,
    notes,
    answer: (method, handler) => void (answers[method] = handler),
    run: async (fn) => {
      const out: { value?: any; error?: any } = {};
      current = async (ctx) => {
        try {
          out.value = await fn(ctx);
        } catch (e) {
          out.error = e;
        }
        return {};
      };
      await client.request('tools/call', { name: 'run' }, { timeout: 5_000 });
      return out;
    },
    call: (fn) => {
      current = fn;
      return client.request('tools/call', { name: 'call' }, { timeout: 5_000 });
    },
    sent: (method) =>
      session.journal!.entries.filter((e: any) => e.kind === 'out' && e.frame.method === method).map((e: any) => e.frame),
  };
  return env;
}

const text = (t: string) => ({ type: 'text', text: t });
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const toolUse = (id: string, name = 'get_weather', input: object = { city: 'Paris' }) => ({ type: 'tool_use', id, name, input });
const toolResult = (id: string) => ({ type: 'tool_result', toolUseId: id, content: [text('18°C')] });
const weatherTool = { name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };

describe('client calls from the server', () => {
  describe('sampling/createMessage', () => {
    it('[SAMP-007] without the client\'s sampling capability: a clear McpError, nothing sent', async () => {
      const env = await setup();
      const { error } = await env.run((ctx) => sample(ctx, { messages: [user(text('hi'))], maxTokens: 10 } as any));
      expect(error).to.be.instanceOf(CapabilityError);
      expect(error.message).to.contain('sampling/createMessage').and.contain('"sampling"');
      expect(env.sent('sampling/createMessage')).to.deep.equal([]);
    });

    it('sends the request related to the tool call and returns the checked result', async () => {
      const env = await setup({ caps: { sampling: {} } });
      const answer = { role: 'assistant', content: text('Paris'), model: 'test-model', stopReason: 'endTurn' };
      env.answer('sampling/createMessage', () => answer);
      const params = { messages: [user(text('Capital of France?'))], maxTokens: 100, systemPrompt: 'Be brief.' };
      const { value, error } = await env.run((ctx) => sample(ctx, params as any));
      expect(error).to.equal(undefined);
      expect(value).to.deep.equal(answer);
      expect(env.received['sampling/createMessage']).to.deep.equal([params]);
    });

    it('[SAMP-005] [SAMP-006] tools only to a client that declared sampling.tools, in a revision that has them', async () => {
      const noTools = await setup({ caps: { sampling: {} } });
      const p = { messages: [user(text('weather?'))], maxTokens: 100, tools: [weatherTool] };
      const r1 = await noTools.run((ctx) => sample(ctx, p as any));
      expect(r1.error).to.be.instanceOf(CapabilityError);
      expect(r1.error.message).to.contain('sampling.tools');
      const r2 = await noTools.run((ctx) => sample(ctx, { messages: [user(text('x'))], maxTokens: 5, toolChoice: { mode: 'none' } } as any));
      expect(r2.error).to.be.instanceOf(CapabilityError);
      expect(noTools.sent('sampling/createMessage')).to.deep.equal([]);

      const old = await setup({ caps: { sampling: { tools: {} } }, versions: ['2025-06-18'] });
      const r3 = await old.run((ctx) => sample(ctx, p as any));
      expect(r3.error).to.be.instanceOf(McpError);
      expect(r3.error.message).to.contain('2025-06-18');
      expect(old.sent('sampling/createMessage')).to.deep.equal([]);
    });

    it('[SAMP-008] includeContext other than "none" only with sampling.context (2025-11-25); older revisions allow it', async () => {
      const env = await setup({ caps: { sampling: {} } });
      const { error } = await env.run((ctx) => sample(ctx, { messages: [user(text('x'))], maxTokens: 5, includeContext: 'thisServer' } as any));
      expect(error).to.be.instanceOf(CapabilityError);
      expect(error.message).to.contain('sampling.context');
      const old = await setup({ caps: { sampling: {} }, versions: ['2025-06-18'] });
      old.answer('sampling/createMessage', () => ({ role: 'assistant', content: text('ok'), model: 'm' }));
      const r = await old.run((ctx) => sample(ctx, { messages: [user(text('x'))], maxTokens: 5, includeContext: 'thisServer' } as any));
      expect(r.error).to.equal(undefined);
    });

    it('[SAMP-010] [SAMP-021] a balanced multi-turn tool loop goes out; the tool_use result comes back', async () => {
      const env = await setup({ caps: { sampling: { tools: {} } } });
      const useAnswer = { role: 'assistant', content: [toolUse('call_1'), toolUse('call_2', 'get_weather', { city: 'London' })], model: 'm', stopReason: 'toolUse' };
      env.answer('sampling/createMessage', (params) => (params.messages.length === 1 ? useAnswer : { role: 'assistant', content: text('Both mild.'), model: 'm', stopReason: 'endTurn' }));
      const first = await env.run((ctx) => sample(ctx, { messages: [user(text('Weather?'))], maxTokens: 100, tools: [weatherTool] } as any));
      expect(first.value).to.deep.equal(useAnswer);
      const history = [user(text('Weather?')), assistant(useAnswer.content), user([toolResult('call_1'), toolResult('call_2')])];
      const second = await env.run((ctx) => sample(ctx, { messages: history, maxTokens: 100, tools: [weatherTool] } as any));
      expect(second.error).to.equal(undefined);
      expect((second.value as any).content).to.deep.equal(text('Both mild.'));
    });

    describe('[SAMP-009] [SAMP-010] [SAMP-021] unbalanced messages are refused before sending (-32602)', () => {
      const cases: [string, unknown[], RegExp][] = [
        ['the last assistant message has an unanswered tool_use', [user(text('q')), assistant([toolUse('a')])], /answer them before sampling again/],
        ['one tool_use is left without a result', [user(text('q')), assistant([toolUse('a'), toolUse('b')]), user([toolResult('a')])], /"b".*without a tool_result/],
        ['tool results mixed with text', [user(text('q')), assistant([toolUse('a')]), user([toolResult('a'), text('and more')])], /mixes tool_result/],
        ['a tool_result for an unknown id', [user(text('q')), assistant([toolUse('a')]), user([toolResult('zzz')])], /"zzz", which no tool_use/],
        ['another message before the tool results', [user(text('q')), assistant([toolUse('a')]), user(text('hurry')), user([toolResult('a')])], /must be a user message of tool_result blocks/],
        ['a tool_result with no tool_use before it', [user(text('q')), user([toolResult('a')])], /does not follow an assistant message/],
        ['a tool_use in a user message', [user([toolUse('a')])], /tool uses come from the assistant/],
        ['a reused tool_use id', [user(text('q')), assistant([toolUse('a')]), user([toolResult('a')]), assistant([toolUse('a')]), user([toolResult('a')])], /used twice/],
      ];
      for (const [what, messages, re] of cases) {
        it(what, async () => {
          const env = await setup({ caps: { sampling: { tools: {} } } });
          const { error } = await env.run((ctx) => sample(ctx, { messages, maxTokens: 10, tools: [weatherTool] } as any));
          expect(error).to.be.instanceOf(McpError);
          expect(error.code).to.equal(-32602);
          expect(error.message).to.match(re);
          expect(env.sent('sampling/createMessage')).to.deep.equal([]);
        });
      }
    });

    describe('[SAMP-017] the client\'s result is checked (balance, offered tools, toolChoice)', () => {
      const cases: [string, Record<string, unknown>, unknown, RegExp][] = [
        ['a tool not offered', { tools: [weatherTool] }, { role: 'assistant', content: [toolUse('x', 'rm_rf')], model: 'm' }, /not offered/],
        ['a tool_result in the answer', { tools: [weatherTool] }, { role: 'assistant', content: [toolResult('x')], model: 'm' }, /only the server sends tool results/],
        ['a tool_use when no tools were offered', {}, { role: 'assistant', content: [toolUse('x')], model: 'm' }, /tool-enabled sampling/],
        ['stopReason toolUse without a tool_use', { tools: [weatherTool] }, { role: 'assistant', content: text('hm'), model: 'm', stopReason: 'toolUse' }, /no tool_use block/],
        ['a tool_use from the user role', { tools: [weatherTool] }, { role: 'user', content: [toolUse('x')], model: 'm' }, /tool uses come from the assistant/],
        ['no model', {}, { role: 'assistant', content: text('x') }, /"model"/],
        ['a content block of the wrong type', {}, { role: 'assistant', content: { type: 'text', text: 42 }, model: 'm' }, /string "text"/],
      ];
      for (const [what, extra, answer, re] of cases) {
        it(what, async () => {
          const env = await setup({ caps: { sampling: { tools: {} } } });
          env.answer('sampling/createMessage', () => answer);
          const { error } = await env.run((ctx) => sample(ctx, { messages: [user(text('q'))], maxTokens: 10, ...extra } as any));
          expect(error).to.be.instanceOf(InvalidClientResultError);
          expect(error.message).to.match(re);
        });
      }

      it('[SAMP-012] a tool use under toolChoice "none" is refused', async () => {
        const env = await setup({ caps: { sampling: { tools: {} } } });
        env.answer('sampling/createMessage', () => ({ role: 'assistant', content: [toolUse('x')], model: 'm' }));
        const { error } = await env.run((ctx) => sample(ctx, { messages: [user(text('q'))], maxTokens: 10, tools: [weatherTool], toolChoice: { mode: 'none' } } as any));
        expect(error).to.be.instanceOf(InvalidClientResultError);
        expect(error.message).to.match(/"none"/);
      });

      it('[SAMP-011] no tool use at all under toolChoice "required" is refused', async () => {
        const env = await setup({ caps: { sampling: { tools: {} } } });
        env.answer('sampling/createMessage', () => ({ role: 'assistant', content: text('no'), model: 'm' }));
        const { error } = await env.run((ctx) => sample(ctx, { messages: [user(text('q'))], maxTokens: 10, tools: [weatherTool], toolChoice: { mode: 'required' } } as any));
        expect(error).to.be.instanceOf(InvalidClientResultError);
        expect(error.message).to.match(/"required"/);
      });

      it('a result reusing a tool_use id of the history breaks the balance', async () => {
        const env = await setup({ caps: { sampling: { tools: {} } } });
        env.answer('sampling/createMessage', () => ({ role: 'assistant', content: [toolUse('a')], model: 'm' }));
        const history = [user(text('q')), assistant([toolUse('a')]), user([toolResult('a')])];
        const { error } = await env.run((ctx) => sample(ctx, { messages: history, maxTokens: 10, tools: [weatherTool] } as any));
        expect(error).to.be.instanceOf(InvalidClientResultError);
        expect(error.message).to.match(/used twice/);
      });
    });

    it('[SAMP-017] content the negotiated revision does not have is refused before sending', async () => {
      const env = await setup({ caps: { sampling: {} }, versions: ['2025-06-18'] });
      const r1 = await env.run((ctx) => sample(ctx, { messages: [user([text('a'), text('b')])], maxTokens: 10 } as any));
      expect(r1.error.code).to.equal(-32602);
      expect(r1.error.message).to.contain('single block');
      const old = await setup({ caps: { sampling: {} }, versions: ['2024-11-05'] });
      const r2 = await old.run((ctx) => sample(ctx, { messages: [user({ type: 'audio', data: 'AA==', mimeType: 'audio/wav' })], maxTokens: 10 } as any));
      expect(r2.error.code).to.equal(-32602);
      expect(r2.error.message).to.contain('audio');
      const r3 = await old.run((ctx) => sample(ctx, { messages: [], maxTokens: 10 } as any));
      expect(r3.error.message).to.contain('non-empty');
      const r4 = await old.run((ctx) => sample(ctx, { messages: [user(text('x'))], maxTokens: 0 } as any));
      expect(r4.error.message).to.contain('maxTokens');
    });

    it('toolBalanceProblem accepts the spec\'s valid sequence and names what is wrong in the invalid one', () => {
      const valid = [user(text('Weather?')), assistant([toolUse('call_abc123'), toolUse('call_def456')]), user([toolResult('call_abc123'), toolResult('call_def456')]), assistant(text('Mild.'))];
      expect(toolBalanceProblem(valid)).to.equal(undefined);
      const invalid = [user(text('Weather?')), assistant([toolUse('call_abc123'), toolUse('call_def456')]), user([toolResult('call_abc123')]), assistant(text('Mild.'))];
      expect(toolBalanceProblem(invalid)).to.contain('call_def456');
    });
  });

  describe('elicitation/create, form mode', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', minimum: 18 } }, required: ['name'] };

    it('[ELICIT-007] [ELICIT-009] without the client\'s elicitation capability, or before 2025-06-18: an McpError, nothing sent', async () => {
      const env = await setup();
      const r1 = await env.run((ctx) => elicit(ctx, { message: 'Name?', requestedSchema: schema as any }));
      expect(r1.error).to.be.instanceOf(CapabilityError);
      expect(r1.error.message).to.contain('"elicitation"');
      const old = await setup({ caps: { elicitation: {} }, versions: ['2025-03-26'] });
      const r2 = await old.run((ctx) => elicit(ctx, { message: 'Name?', requestedSchema: schema as any }));
      expect(r2.error).to.be.instanceOf(McpError);
      expect(r2.error.message).to.contain('2025-03-26');
      expect(env.sent('elicitation/create')).to.deep.equal([]);
      expect(old.sent('elicitation/create')).to.deep.equal([]);
    });

    it('[ELICIT-010] [ELICIT-011] [ELICIT-012] sends message and schema; accept returns the checked content', async () => {
      const env = await setup({ caps: { elicitation: {} } });
      env.answer('elicitation/create', () => ({ action: 'accept', content: { name: 'octocat', age: 30 } }));
      const { value, error } = await env.run((ctx) => elicit(ctx, { message: 'Who are you?', requestedSchema: schema as any }));
      expect(error).to.equal(undefined);
      expect(value).to.deep.equal({ action: 'accept', content: { name: 'octocat', age: 30 } });
      expect(env.received['elicitation/create']).to.deep.equal([{ message: 'Who are you?', requestedSchema: schema }]);
    });

    it('[ELICIT-012] an explicit mode "form" is sent in 2025-11-25 and left out in 2025-06-18 (which has no mode)', async () => {
      for (const [versions, mode] of [[['2025-11-25'], 'form'], [['2025-06-18'], undefined]] as const) {
        const env = await setup({ caps: { elicitation: {} }, versions: [...versions] });
        env.answer('elicitation/create', () => ({ action: 'decline' }));
        await env.run((ctx) => elicit(ctx, { mode: 'form', message: 'm', requestedSchema: schema as any }));
        expect(env.received['elicitation/create']![0].mode).to.equal(mode);
      }
    });

    it('decline and cancel come back without content (content the client sent anyway is dropped)', async () => {
      const env = await setup({ caps: { elicitation: { form: {} } } });
      env.answer('elicitation/create', () => ({ action: 'decline', content: { name: 'leak' } }));
      expect((await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: schema as any }))).value).to.deep.equal({ action: 'decline' });
      env.answer('elicitation/create', () => ({ action: 'cancel' }));
      expect((await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: schema as any }))).value).to.deep.equal({ action: 'cancel' });
    });

    it('elicitation$ shows requested, then accepted.received, and completes', async () => {
      const env = await setup({ caps: { elicitation: {} } });
      env.answer('elicitation/create', () => ({ action: 'accept', content: { name: 'ab' } }));
      const values: unknown[] = [];
      let completed = false;
      await env.run(async (ctx) => {
        const call = elicit(ctx, { message: 'm', requestedSchema: schema as any });
        call.elicitation$.subscribe({ next: (s: ServerElicitationSnapshot) => values.push(s.value), complete: () => (completed = true) });
        return call;
      });
      await settle();
      expect(values).to.deep.equal(['requested', { accepted: 'received' }]);
      expect(completed).to.equal(true);
    });

    describe('the restricted schema is checked before sending (-32602)', () => {
      const bad: [string, unknown, RegExp][] = [
        ['a nested object property (not flat)', { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } }, /flat/],
        ['an array of objects', { type: 'object', properties: { people: { type: 'array', items: { type: 'object' } } } }, /enum choices/],
        ['a $ref', { type: 'object', properties: { a: { $ref: '#/x' } } }, /type undefined|"\$ref"/],
        ['a top-level keyword outside the subset', { type: 'object', properties: {}, allOf: [] }, /"allOf"/],
        ['not an object schema', { type: 'string' }, /type "object"/],
        ['required naming no property', { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, /"b"/],
        ['an unknown string format', { type: 'object', properties: { a: { type: 'string', format: 'ipv4' } } }, /format/],
        ['a default outside the enum', { type: 'object', properties: { c: { type: 'string', enum: ['r', 'g'], default: 'b' } } }, /default/],
        ['a titled option without a title', { type: 'object', properties: { c: { type: 'string', oneOf: [{ const: 'r' }] } } }, /\{ const: string, title: string \}/],
        ['minimum above maximum', { type: 'object', properties: { n: { type: 'number', minimum: 5, maximum: 1 } } }, /minimum is above maximum/],
      ];
      for (const [what, requestedSchema, re] of bad) {
        it(what, async () => {
          const env = await setup({ caps: { elicitation: {} } });
          const { error } = await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: requestedSchema as any }));
          expect(error).to.be.instanceOf(McpError);
          expect(error.code).to.equal(-32602);
          expect(error.message).to.match(re);
          expect(env.sent('elicitation/create')).to.deep.equal([]);
        });
      }

      it('[ELICIT-001] [ELICIT-002] [ELICIT-054] [ELICIT-060] [ELICIT-065] [ELICIT-072] a field or title that looks like a credential is refused, pointing to URL mode', async () => {
        const env = await setup({ caps: { elicitation: {} } });
        for (const requestedSchema of [
          { type: 'object', properties: { password: { type: 'string' } } },
          { type: 'object', properties: { k: { type: 'string', title: 'Your API key' } } },
          { type: 'object', properties: { card_number: { type: 'string' } } },
        ]) {
          const { error } = await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: requestedSchema as any }));
          expect(error.code).to.equal(-32602);
          expect(error.message).to.match(/sensitive.*URL mode/);
        }
        expect(env.sent('elicitation/create')).to.deep.equal([]);
      });

      it('allowSensitiveFields lets a field the heuristic flags through', async () => {
        const env = await setup({ caps: { elicitation: {} } });
        env.answer('elicitation/create', () => ({ action: 'cancel' }));
        const { error } = await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: { type: 'object', properties: { secretSanta: { type: 'boolean' } } } as any }, { allowSensitiveFields: true }));
        expect(error).to.equal(undefined);
      });
    });

    it('accepts the SEP-1330 enum forms and SEP-1034 defaults (2025-11-25), and checks answers against them', async () => {
      const enums = {
        type: 'object',
        properties: {
          color: { type: 'string', enum: ['Red', 'Green'], default: 'Red' },
          hex: { type: 'string', oneOf: [{ const: '#F00', title: 'Red' }, { const: '#0F0', title: 'Green' }], default: '#F00' },
          many: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] }, default: ['a'] },
          manyTitled: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }, { const: 'y', title: 'Y' }] } },
          count: { type: 'integer', default: 3 },
          email: { type: 'string', format: 'email', default: 'a@b.co' },
          ok: { type: 'boolean', default: false },
        },
        required: ['color'],
      };
      const env = await setup({ caps: { elicitation: {} } });
      const content = { color: 'Green', hex: '#0F0', many: ['a', 'c'], manyTitled: ['y'], count: 4, email: 'me@example.org', ok: true };
      env.answer('elicitation/create', () => ({ action: 'accept', content }));
      const { value, error } = await env.run((ctx) => elicit(ctx, { message: 'Pick', requestedSchema: enums as any }));
      expect(error).to.equal(undefined);
      expect(value).to.deep.equal({ action: 'accept', content });
      expect(env.received['elicitation/create']![0].requestedSchema).to.deep.equal(enums);
    });

    it('shapes the schema for 2025-06-18: titled enum → enum + enumNames, non-boolean defaults dropped; multi-select refused', async () => {
      const env = await setup({ caps: { elicitation: {} }, versions: ['2025-06-18'] });
      env.answer('elicitation/create', () => ({ action: 'accept', content: { hex: '#0F0' } }));
      const s = {
        type: 'object',
        properties: { hex: { type: 'string', oneOf: [{ const: '#F00', title: 'Red' }, { const: '#0F0', title: 'Green' }], default: '#F00' }, ok: { type: 'boolean', default: true } },
        $schema: 'https://json-schema.org/draft/2020-12/schema',
      };
      const { value } = await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: s as any }));
      expect(value).to.deep.equal({ action: 'accept', content: { hex: '#0F0' } });
      expect(env.received['elicitation/create']![0].requestedSchema).to.deep.equal({
        type: 'object',
        properties: { hex: { type: 'string', enum: ['#F00', '#0F0'], enumNames: ['Red', 'Green'] }, ok: { type: 'boolean', default: true } },
      });
      const multi = { type: 'object', properties: { m: { type: 'array', items: { type: 'string', enum: ['a'] } } } };
      const { error } = await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: multi as any }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.contain('2025-11-25');
    });

    describe('[ELICIT-056] [ELICIT-067] an answer of the wrong type is refused (InvalidClientResultError)', () => {
      const cases: [string, unknown, RegExp][] = [
        ['a number for a string field', { action: 'accept', content: { name: 42 } }, /"name" must be a string/],
        ['a missing required field', { action: 'accept', content: { age: 20 } }, /"name" is required/],
        ['a field that was not requested', { action: 'accept', content: { name: 'ok', admin: true } }, /"admin" was not requested/],
        ['a value below minimum', { action: 'accept', content: { name: 'ok', age: 3 } }, /at least 18/],
        ['a fraction for an integer', { action: 'accept', content: { name: 'ok', age: 20.5 } }, /integer/],
        ['a string too short', { action: 'accept', content: { name: 'x' } }, /at least 2/],
        ['content that is not an object', { action: 'accept', content: 'octocat' }, /must be an object/],
        ['an unknown action', { action: 'ok' }, /"action" must be/],
      ];
      for (const [what, answer, re] of cases) {
        it(what, async () => {
          const env = await setup({ caps: { elicitation: {} } });
          env.answer('elicitation/create', () => answer);
          let last: ServerElicitationSnapshot | undefined;
          const { error } = await env.run((ctx) => {
            const call = elicit(ctx, { message: 'm', requestedSchema: schema as any });
            call.elicitation$.subscribe((s) => (last = s));
            return call;
          });
          expect(error).to.be.instanceOf(InvalidClientResultError);
          expect(error.message).to.match(re);
          expect(last?.value).to.equal('failed');
        });
      }

      it('an enum value outside the choices', async () => {
        const env = await setup({ caps: { elicitation: {} } });
        env.answer('elicitation/create', () => ({ action: 'accept', content: { c: 'Blue' } }));
        const { error } = await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: { type: 'object', properties: { c: { type: 'string', enum: ['Red'] } } } as any }));
        expect(error.message).to.match(/one of "Red"/);
      });
    });

    it('a client error answer rejects with that error and the machine fails', async () => {
      const env = await setup({ caps: { elicitation: {} } });
      env.answer('elicitation/create', () => {
        throw new McpError(-32602, 'mode not supported');
      });
      const { error } = await env.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: schema as any }));
      expect(error).to.be.instanceOf(McpError);
      expect(error.code).to.equal(-32602);
    });
  });

  describe('elicitation/create, URL mode', () => {
    const urlCaps = { elicitation: { form: {}, url: {} } };

    it('[ELICIT-009] only to a client that declared elicitation.url, in 2025-11-25', async () => {
      const formOnly = await setup({ caps: { elicitation: {} } });
      const r1 = await formOnly.run((ctx) => elicit(ctx, { mode: 'url', message: 'Connect', url: 'https://mcp.example.com/connect' }));
      expect(r1.error).to.be.instanceOf(CapabilityError);
      expect(r1.error.message).to.contain('elicitation.url');
      const old = await setup({ caps: { elicitation: {} }, versions: ['2025-06-18'] });
      const r2 = await old.run((ctx) => elicit(ctx, { mode: 'url', message: 'Connect', url: 'https://mcp.example.com/connect' }));
      expect(r2.error.message).to.contain('2025-06-18');
      const urlOnly = await setup({ caps: { elicitation: { url: {} } } });
      const r3 = await urlOnly.run((ctx) => elicit(ctx, { message: 'm', requestedSchema: { type: 'object', properties: {} } as any }));
      expect(r3.error).to.be.instanceOf(CapabilityError);
      expect(r3.error.message).to.contain('elicitation.form');
      for (const e of [formOnly, old, urlOnly]) expect(e.sent('elicitation/create')).to.deep.equal([]);
    });

    describe('[ELICIT-015] [ELICIT-040] [ELICIT-041] [ELICIT-043] the URL is checked before sending (-32602)', () => {
      const bad: [string, RegExp][] = [
        ['not a url', /not a valid URL/],
        ['javascript:alert(1)', /https/],
        ['http://mcp.example.com/connect', /https/],
        ['https://user:pw@mcp.example.com/connect', /credentials/],
        ['https://mcp.example.com/connect?access_token=abc', /access_token/],
      ];
      for (const [url, re] of bad) {
        it(url, async () => {
          const env = await setup({ caps: urlCaps });
          const { error } = await env.run((ctx) => elicit(ctx, { mode: 'url', message: 'Connect', url }));
          expect(error.code).to.equal(-32602);
          expect(error.message).to.match(re);
        });
      }
    });

    it('[ELICIT-014] [ELICIT-016] [ELICIT-017] accept → awaiting the out-of-band completion → completeElicitation tells that client', async () => {
      const env = await setup({ caps: urlCaps });
      env.answer('elicitation/create', () => ({ action: 'accept', content: { sneaky: 'data' } }));
      const states: unknown[] = [];
      let id: string | undefined;
      const { value } = await env.run(async (ctx) => {
        const call = elicit(ctx, { mode: 'url', message: 'Please connect your account', url: 'https://mcp.example.com/connect' });
        id = call.elicitationId;
        call.elicitation$.subscribe((s) => states.push(s.value));
        return call;
      });
      expect(value, 'URL mode data never passes through the client').to.deep.equal({ action: 'accept' });
      const req = env.received['elicitation/create']![0];
      expect(req).to.deep.equal({ mode: 'url', message: 'Please connect your account', url: 'https://mcp.example.com/connect', elicitationId: id });
      expect(id).to.match(/^[0-9a-f-]{36}$/);
      expect(states).to.deep.equal(['requested', { accepted: 'awaitingCompletion' }]);
      // The server's own web route sees the user finish: it completes the elicitation.
      expect(completeElicitation(env.session, id!)).to.equal(true);
      await settle();
      expect(states).to.deep.equal(['requested', { accepted: 'awaitingCompletion' }, { accepted: 'completed' }]);
      expect(env.notes).to.deep.equal([{ method: 'notifications/elicitation/complete', params: { elicitationId: id } }]);
      expect(completeElicitation(env.session, id!), 'already completed').to.equal(false);
      await settle();
      expect(env.notes).to.have.length(1);
    });

    it('[ELICIT-016] a completion goes only to the client that was asked', async () => {
      const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, journal: true });
      let id = '';
      server.onRequest('tools/call', async (_p, ctx) => {
        const call = elicit(ctx, { mode: 'url', message: 'm', url: 'https://mcp.example.com/c', elicitationId: 'fixed-id' });
        id = call.elicitationId!;
        await call;
        return {};
      });
      const asked = await setup({ caps: urlCaps, server });
      const other = await setup({ caps: urlCaps, server });
      asked.answer('elicitation/create', () => ({ action: 'accept' }));
      await asked.client.request('tools/call', { name: 'x' });
      expect(() => completeElicitation(other.session, id)).to.throw(McpError, /only to the client that was asked/);
      expect(completeElicitation(asked.session, id)).to.equal(true);
      await settle();
      expect(asked.notes).to.have.length(1);
      expect(other.notes).to.have.length(0);
    });

    it('a declined URL elicitation cannot complete; a reused id is refused', async () => {
      const env = await setup({ caps: urlCaps });
      env.answer('elicitation/create', () => ({ action: 'decline' }));
      const { value } = await env.run((ctx) => elicit(ctx, { mode: 'url', message: 'm', url: 'https://a.example/x', elicitationId: 'e1' }));
      expect(value).to.deep.equal({ action: 'decline' });
      expect(completeElicitation(env.session, 'e1')).to.equal(false);
      const again = await env.run((ctx) => elicit(ctx, { mode: 'url', message: 'm', url: 'https://a.example/x', elicitationId: 'e1' }));
      expect(again.error.code).to.equal(-32602);
      expect(again.error.message).to.contain('already in use');
    });

    it('a URL elicitation still waiting when the session closes is abandoned', async () => {
      const env = await setup({ caps: urlCaps });
      env.answer('elicitation/create', () => ({ action: 'accept' }));
      let last: ServerElicitationSnapshot | undefined;
      await env.run(async (ctx) => {
        const call = elicit(ctx, { mode: 'url', message: 'm', url: 'https://a.example/x' }, { clock: new ManualClock(0) });
        call.elicitation$.subscribe((s) => (last = s));
        return call;
      });
      expect(last?.value).to.deep.equal({ accepted: 'awaitingCompletion' });
      await env.client.close();
      await settle();
      expect(last?.value).to.deep.equal({ accepted: 'abandoned' });
    });

    it('[ELICIT-032] [ELICIT-021] [ELICIT-022] a handler throws -32042 with the URL elicitations; completing one notifies the client', async () => {
      const env = await setup({ caps: urlCaps });
      const err = await env
        .call((ctx) => {
          throw urlElicitationRequired(ctx, [{ message: 'Authorize Example Co', url: 'https://mcp.example.com/connect?elicitationId=abc', elicitationId: 'abc' }]);
        })
        .then(
          () => expect.fail('expected -32042'),
          (e) => e as McpError,
        );
      expect(err.code).to.equal(-32042);
      expect(err.message).to.equal('This request requires more information.');
      expect(err.data).to.deep.equal({
        elicitations: [{ mode: 'url', elicitationId: 'abc', url: 'https://mcp.example.com/connect?elicitationId=abc', message: 'Authorize Example Co' }],
      });
      expect(completeElicitation(env.session, 'abc')).to.equal(true);
      await settle();
      expect(env.notes).to.deep.equal([{ method: 'notifications/elicitation/complete', params: { elicitationId: 'abc' } }]);
      expect(completeElicitation(env.session, 'abc')).to.equal(false);
    });

    it('[ELICIT-020] -32042 is not built for a client that cannot do URL mode', async () => {
      const env = await setup({ caps: { elicitation: {} } });
      const { error } = await env.run((ctx) => urlElicitationRequired(ctx, [{ message: 'm', url: 'https://a.example/x' }]));
      expect(error).to.be.instanceOf(CapabilityError);
    });

    it('[ELICIT-022] UrlElicitationRequiredError holds only URL elicitations with ids', () => {
      const e = new UrlElicitationRequiredError([{ message: 'm', url: 'https://a.example/x' }]);
      expect(e.code).to.equal(-32042);
      expect(e.elicitations[0]!.mode).to.equal('url');
      expect(e.elicitations[0]!.elicitationId).to.be.a('string').and.not.equal('');
      expect(() => new UrlElicitationRequiredError([])).to.throw(TypeError);
      expect(() => new UrlElicitationRequiredError([{ mode: 'form', message: 'm', url: 'https://a.example' } as any])).to.throw(/only URL-mode/);
      expect(() => new UrlElicitationRequiredError([{ message: 'm', url: 'ftp://a.example' }])).to.throw(/https/);
    });
  });

  describe('roots', () => {
    it('[ROOTS-017] roots/list only to a client that declared roots', async () => {
      const env = await setup();
      const { error } = await env.run((ctx) => listRoots(ctx));
      expect(error).to.be.instanceOf(CapabilityError);
      expect(env.sent('roots/list')).to.deep.equal([]);
    });

    it('lists roots; [ROOTS-003] a root that is not a file:// URI is refused', async () => {
      const env = await setup({ caps: { roots: { listChanged: true } } });
      const roots = [{ uri: 'file:///home/user/projects/myproject', name: 'My Project' }];
      env.answer('roots/list', () => ({ roots }));
      expect((await env.run((ctx) => listRoots(ctx))).value).to.deep.equal({ roots });
      env.answer('roots/list', () => ({ roots: [{ uri: 'https://example.com/repo' }] }));
      const bad = await env.run((ctx) => listRoots(ctx));
      expect(bad.error).to.be.instanceOf(InvalidClientResultError);
      expect(bad.error.message).to.contain('file://');
      env.answer('roots/list', () => ({ roots: 'nope' }));
      expect((await env.run((ctx) => listRoots(ctx))).error).to.be.instanceOf(InvalidClientResultError);
    });

    it('[ROOTS-018] onRootsChanged calls back with the session; the listener can list again from the session', async () => {
      const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
      const seen: { session: Session; roots: unknown }[] = [];
      const stop = onRootsChanged(server, async (session) => {
        seen.push({ session, roots: (await listRoots(session)).roots });
      });
      const env = await setup({ caps: { roots: { listChanged: true } }, server });
      env.answer('roots/list', () => ({ roots: [{ uri: 'file:///a' }] }));
      env.client.notify('notifications/roots/list_changed');
      await settle();
      await settle();
      expect(seen).to.have.length(1);
      expect(seen[0]!.session).to.equal(env.session);
      expect(seen[0]!.roots).to.deep.equal([{ uri: 'file:///a' }]);
      // A client that did not declare roots.listChanged is not listened to.
      const quiet = await setup({ caps: { roots: {} }, server });
      quiet.client.notify('notifications/roots/list_changed');
      await settle();
      expect(seen).to.have.length(1);
      stop();
      env.client.notify('notifications/roots/list_changed');
      await settle();
      expect(seen).to.have.length(1);
    });
  });
});
