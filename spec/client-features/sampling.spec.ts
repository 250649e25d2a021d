import { expect } from 'chai';
import sinon from 'sinon';
import { SamplingRejectedError } from '../../lib/client-features/client-feature-errors.js';
import type { Diagnostic } from '../../lib/session/session.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../../lib/protocol/schema/index.js';
import { flush, pair, rejection } from './helpers.js';

const WEATHER_TOOL = { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const ASK = { role: 'user', content: { type: 'text', text: "What's the weather in Paris and London?" } };
const USES = {
  role: 'assistant',
  content: [
    { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'London' } },
  ],
};
const RESULTS = {
  role: 'user',
  content: [
    { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: '18°C' }] },
    { type: 'tool_result', toolUseId: 'call_2', content: [{ type: 'text', text: '15°C' }] },
  ],
};
const TEXT_ANSWER: CreateMessageResult = { role: 'assistant', content: { type: 'text', text: 'Warm in Paris.' }, model: 'test-model', stopReason: 'endTurn' };

async function samplingPair(handler: (p: CreateMessageRequestParams) => CreateMessageResult | Promise<CreateMessageResult>, tools = true) {
  const spy = sinon.spy(handler);
  const p = await pair({ serverUnchecked: true, setup: (c) => c.onSampling((params) => spy(params), { tools }) });
  return { ...p, spy };
}

describe('client features: sampling', () => {
  it('[SAMP-007] [SAMP-005] onSampling declares sampling, and sampling.tools when the handler supports tools', async () => {
    const withTools = await samplingPair(() => TEXT_ANSWER, true);
    expect(withTools.session.peerCapabilities).to.deep.include({ sampling: { tools: {} } });
    const plain = await samplingPair(() => TEXT_ANSWER, false);
    expect(plain.session.peerCapabilities).to.deep.include({ sampling: {} });
  });

  it('the handler receives the request, with tools and toolChoice, and its result goes back', async () => {
    const { session, spy } = await samplingPair(() => TEXT_ANSWER);
    const params = { messages: [ASK], tools: [WEATHER_TOOL], toolChoice: { mode: 'auto' }, maxTokens: 100 };
    expect(await session.request('sampling/createMessage', params)).to.deep.equal(TEXT_ANSWER);
    expect(spy.firstCall.args[0]).to.deep.equal(params);
  });

  it('[SAMP-005] a request offering tools to a client that did not declare sampling.tools is answered -32602', async () => {
    const { session, spy } = await samplingPair(() => TEXT_ANSWER, false);
    const err = await rejection(session.request('sampling/createMessage', { messages: [ASK], tools: [WEATHER_TOOL], maxTokens: 10 }));
    expect(err.code).to.equal(-32602);
    expect(err.message).to.contain('sampling.tools');
    expect(spy.called).to.equal(false);
  });

  it('[SAMP-010] a full tool loop (uses answered by results) reaches the handler', async () => {
    const { session, spy } = await samplingPair(() => TEXT_ANSWER);
    await session.request('sampling/createMessage', { messages: [ASK, USES, RESULTS], tools: [WEATHER_TOOL], maxTokens: 100 });
    expect(spy.calledOnce).to.equal(true);
  });

  it('[SAMP-010] [SAMP-014] an unbalanced tool_use (a result missing) is answered -32602 and the handler never runs', async () => {
    const { session, spy } = await samplingPair(() => TEXT_ANSWER);
    const partial = { role: 'user', content: [RESULTS.content[0]] };
    const err = await rejection(session.request('sampling/createMessage', { messages: [ASK, USES, partial], tools: [WEATHER_TOOL], maxTokens: 100 }));
    expect(err.code).to.equal(-32602);
    expect(err.message).to.contain('Tool result missing').and.contain('call_2');
    // A trailing tool_use with no answer at all is unbalanced too.
    const err2 = await rejection(session.request('sampling/createMessage', { messages: [ASK, USES], tools: [WEATHER_TOOL], maxTokens: 100 }));
    expect(err2.code).to.equal(-32602);
    // So is a tool_result that answers nothing.
    const err3 = await rejection(session.request('sampling/createMessage', { messages: [ASK, RESULTS], tools: [WEATHER_TOOL], maxTokens: 100 }));
    expect(err3.code).to.equal(-32602);
    expect(spy.called).to.equal(false);
  });

  it('[SAMP-009] [SAMP-015] tool results mixed with other content are answered -32602', async () => {
    const { session } = await samplingPair(() => TEXT_ANSWER);
    const mixed = { role: 'user', content: [{ type: 'text', text: 'here:' }, ...RESULTS.content] };
    const err = await rejection(session.request('sampling/createMessage', { messages: [ASK, USES, mixed], tools: [WEATHER_TOOL], maxTokens: 100 }));
    expect(err.code).to.equal(-32602);
    expect(err.message).to.contain('mixed with other content');
  });

  it('[SAMP-017] [SAMP-056] malformed requests (no messages, a role other than user or assistant, no content) are answered -32602', async () => {
    const { session } = await samplingPair(() => TEXT_ANSWER);
    expect((await rejection(session.request('sampling/createMessage', { messages: [{ role: 'user' }], maxTokens: 1 }))).code).to.equal(-32602);
    expect((await rejection(session.request('sampling/createMessage', { messages: [{ content: { type: 'text', text: 'x' } }], maxTokens: 1 }))).code).to.equal(-32602);
    expect((await rejection(session.request('sampling/createMessage', { maxTokens: 1 }))).code).to.equal(-32602);
    expect((await rejection(session.request('sampling/createMessage', { messages: [{ role: 'system', content: { type: 'text', text: 'x' } }], maxTokens: 1 }))).code).to.equal(-32602);
  });

  it('[SAMP-058] the handler gets the server\'s maxTokens as sent; a maxTokens that is not a whole number of tokens above 0 is answered -32602 before the model runs', async () => {
    const { session, spy } = await samplingPair(() => TEXT_ANSWER);
    await session.request('sampling/createMessage', { messages: [ASK], maxTokens: 7 });
    expect(spy.firstCall.args[0].maxTokens).to.equal(7);
    for (const maxTokens of [0, -5, 1.5, '100', null]) {
      const err = await rejection(session.request('sampling/createMessage', { messages: [ASK], maxTokens }));
      expect(err.code, String(maxTokens)).to.equal(-32602);
      expect(err.message).to.contain('maxTokens');
    }
    expect((await rejection(session.request('sampling/createMessage', { messages: [ASK] }))).code).to.equal(-32602);
    expect(spy.callCount).to.equal(1);
  });

  it('[SAMP-057] each sampling request reaches the handler with its own messages only: nothing of an earlier request is kept or added', async () => {
    const { session, spy } = await samplingPair(() => TEXT_ANSWER);
    const first = { role: 'user', content: { type: 'text', text: 'my account number is 1234' } };
    const second = { role: 'user', content: { type: 'text', text: 'what is the capital of France?' } };
    await session.request('sampling/createMessage', { messages: [first], maxTokens: 10 });
    await session.request('sampling/createMessage', { messages: [second], maxTokens: 10 });
    expect(spy.secondCall.args[0].messages).to.deep.equal([second]);
    expect(JSON.stringify(spy.secondCall.args[0])).to.not.contain('1234');
  });

  it('[SAMP-013] a user rejection (SamplingRejectedError) is answered with code -1', async () => {
    const { session } = await samplingPair(() => {
      throw new SamplingRejectedError();
    });
    const err = await rejection(session.request('sampling/createMessage', { messages: [ASK], maxTokens: 10 }));
    expect(err.code).to.equal(-1);
    expect(err.message).to.equal('User rejected sampling request');
  });

  describe("the handler's result is checked too", () => {
    const call = (uses: unknown[], extra: object = {}): CreateMessageResult =>
      ({ role: 'assistant', content: uses, model: 'm', stopReason: 'toolUse', ...extra }) as CreateMessageResult;

    it('a tool_use for a tool the request offered passes', async () => {
      const answer = call([{ type: 'tool_use', id: 'c9', name: 'get_weather', input: { city: 'Rome' } }]);
      const { session } = await samplingPair(() => answer);
      expect(await session.request('sampling/createMessage', { messages: [ASK], tools: [WEATHER_TOOL], maxTokens: 100 })).to.deep.equal(answer);
    });

    for (const [title, answer, request] of [
      ['a tool the request did not offer', call([{ type: 'tool_use', id: 'c9', name: 'rm_rf', input: {} }]), { tools: [WEATHER_TOOL] }],
      ['a tool_use when no tools were offered', call([{ type: 'tool_use', id: 'c9', name: 'get_weather', input: {} }]), {}],
      ['[SAMP-012] a tool_use despite toolChoice none', call([{ type: 'tool_use', id: 'c9', name: 'get_weather', input: {} }]), { tools: [WEATHER_TOOL], toolChoice: { mode: 'none' } }],
      ['[SAMP-011] no tool_use despite toolChoice required', TEXT_ANSWER, { tools: [WEATHER_TOOL], toolChoice: { mode: 'required' } }],
      ['a tool_result in a result', call([{ type: 'tool_result', toolUseId: 'x', content: [] }]), { tools: [WEATHER_TOOL] }],
      ['[SAMP-010] duplicate tool_use ids', call([{ type: 'tool_use', id: 'c', name: 'get_weather', input: {} }, { type: 'tool_use', id: 'c', name: 'get_weather', input: {} }]), { tools: [WEATHER_TOOL] }],
      ['no model', { role: 'assistant', content: { type: 'text', text: 'x' } }, {}],
    ] as [string, CreateMessageResult, object][]) {
      it(`${title}: -32603 to the server, and a diagnostic for the host`, async () => {
        const { session, client } = await samplingPair(() => answer);
        const diags: Diagnostic[] = [];
        client.diagnostics$.subscribe((d) => diags.push(d));
        const err = await rejection(session.request('sampling/createMessage', { messages: [ASK], maxTokens: 100, ...request }));
        expect(err.code).to.equal(-32603);
        expect(err.message).to.contain('invalid result');
        await flush();
        expect(diags.some((d) => d.kind === 'handler-error')).to.equal(true);
      });
    }
  });
});
