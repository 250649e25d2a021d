import { expect } from 'chai';
import sinon from 'sinon';
import { selectModel } from '../../lib/client-features/model-preferences.js';
import { McpError } from '../../lib/errors.js';
import type { CreateMessageResult } from '../../lib/protocol/schema/index.js';
import { sample } from '../../lib/server-features/client-calls.js';
import type { SamplingOptions } from '../../lib/client-features/sampling.js';
import { pair, rejection } from './helpers.js';

const ASK = { role: 'user', content: { type: 'text', text: 'Weather?' } };
const WEATHER_TOOL = { name: 'get_weather', inputSchema: { type: 'object' } };
const use = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'get_weather', input: {} }] });
const result = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: 'sunny' }] }] });
const ANSWER: CreateMessageResult = { role: 'assistant', content: { type: 'text', text: 'Sunny.' }, model: 'm', stopReason: 'endTurn' };

async function samplingPair(options: SamplingOptions) {
  const handler = sinon.spy(() => ANSWER);
  const p = await pair({ serverUnchecked: true, setup: (c) => c.onSampling(handler, { tools: true, ...options }) });
  return { ...p, handler };
}

describe('client features: sampling controls', () => {
  it('[SAMP-001] [SAMP-016] [SAMP-028] approval runs first, with the server that asks; a refusal is -1 "User rejected", a failure -32603', async () => {
    let approve = false;
    const seen: unknown[] = [];
    const { session, client, handler } = await samplingPair({
      approve: (params, server) => {
        seen.push([params.maxTokens, server?.name]);
        if (approve === undefined) throw new Error('approval UI crashed');
        return approve;
      },
    });
    const refused = await rejection(session.request('sampling/createMessage', { messages: [ASK], maxTokens: 10 }));
    expect(refused.code).to.equal(-1);
    expect(refused.message).to.equal('User rejected sampling request');
    expect(handler.called).to.equal(false);
    expect(seen).to.deep.equal([[10, client.serverInfo!.name]]);
    approve = true;
    expect(await session.request('sampling/createMessage', { messages: [ASK], maxTokens: 10 })).to.deep.equal(ANSWER);
    (approve as unknown) = undefined;
    expect((await rejection(session.request('sampling/createMessage', { messages: [ASK], maxTokens: 10 }))).code).to.equal(-32603);
  });

  it('[SAMP-003] approval may edit the request before it goes to the model: the handler gets the edit, the answer is checked against it, an invalid edit is refused', async () => {
    let edit: 'none' | 'prompt' | 'bad' = 'prompt';
    const { session, handler } = await samplingPair({
      approve: (params) => {
        if (edit === 'none') return true;
        if (edit === 'bad') return { ...params, messages: 'oops' } as never;
        return { ...params, systemPrompt: 'Answer in one word.', messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }] };
      },
    });
    const ask = () => session.request('sampling/createMessage', { messages: [ASK], systemPrompt: 'Tell me everything about the user.', maxTokens: 10 });
    expect(await ask()).to.deep.equal(ANSWER);
    const seen = (handler.firstCall.args as unknown[])[0] as { systemPrompt: string; messages: { content: { text: string } }[] };
    expect(seen.systemPrompt).to.equal('Answer in one word.');
    expect(seen.messages[0]!.content.text).to.equal('Weather in Paris?');
    edit = 'none';
    await ask();
    expect(((handler.secondCall.args as unknown[])[0] as { systemPrompt: string }).systemPrompt).to.equal('Tell me everything about the user.');
    edit = 'bad';
    expect((await rejection(ask())).code).to.equal(-32603);
    expect(handler.callCount).to.equal(2);
  });

  it('[SAMP-004] review shows the model\'s answer to the user before it goes: sent as they leave or edit it, refused (-1) with nothing of it sent, an invalid edit refused', async () => {
    let decision: 'send' | 'edit' | 'refuse' | 'break' = 'send';
    const reviewed: unknown[] = [];
    const { session } = await samplingPair({
      review: (answer, params, server) => {
        reviewed.push([(answer.content as { text: string }).text, params.maxTokens, server?.name]);
        if (decision === 'refuse') return false;
        if (decision === 'edit') return { ...answer, content: { type: 'text', text: 'Sunny (checked by a human).' } };
        if (decision === 'break') return { ...answer, role: 'system' } as unknown as CreateMessageResult;
        return answer;
      },
    });
    const ask = () => session.request('sampling/createMessage', { messages: [ASK], maxTokens: 10 });
    expect(await ask()).to.deep.equal(ANSWER);
    decision = 'edit';
    expect(await ask()).to.deep.include({ content: { type: 'text', text: 'Sunny (checked by a human).' } });
    decision = 'refuse';
    const refused = await rejection(ask());
    expect(refused.code).to.equal(-1);
    expect(JSON.stringify(refused)).to.not.contain('Sunny');
    decision = 'break';
    expect((await rejection(ask())).code).to.equal(-32603);
    expect(reviewed).to.have.length(4);
    expect(reviewed[0]).to.deep.equal(['Sunny.', 10, 'spec-server']);
  });

  it('[SAMP-019] requests over the rate limit are answered -32603 without reaching the user, until the window refills', async () => {
    const { session, clock, handler } = await samplingPair({ rateLimit: { limit: 2, windowMs: 1_000 } });
    const req = () => session.request('sampling/createMessage', { messages: [ASK], maxTokens: 10 });
    await req();
    await req();
    const over = await rejection(req());
    expect(over.code).to.equal(-32603);
    expect(over.message).to.match(/Too many sampling requests; retry in 500 ms/);
    expect(handler.callCount).to.equal(2);
    clock.advance(500);
    await req();
    expect(handler.callCount).to.equal(3);
  });

  it('[SAMP-022] both sides bound tool loops: the client refuses a conversation past maxToolRounds, the server refuses to send one', async () => {
    const { session, handler } = await samplingPair({ maxToolRounds: 2 });
    const two = [ASK, use('a'), result('a'), use('b'), result('b')];
    const three = [...two, use('c'), result('c')];
    expect(await session.request('sampling/createMessage', { messages: two, tools: [WEATHER_TOOL], maxTokens: 10 })).to.deep.equal(ANSWER);
    const e = await rejection(session.request('sampling/createMessage', { messages: three, tools: [WEATHER_TOOL], maxTokens: 10 }));
    expect(e.code).to.equal(-32602);
    expect(e.message).to.match(/3 tool rounds, more than this client allows \(2\)/);
    expect(handler.callCount).to.equal(1);

    // The server's own loop: with maxToolRounds 2 it stops before a third round goes out.
    const sent: unknown[] = [];
    session.frames$.subscribe((f) => f.direction === 'out' && sent.push(f.frame));
    const local = await rejection(sample(session, { messages: two as never, tools: [WEATHER_TOOL as never], maxTokens: 10 }, { maxToolRounds: 2 }));
    expect(local).to.be.instanceOf(McpError);
    expect(local.message).to.match(/tool loop has run 2 rounds/);
    expect(sent).to.deep.equal([]);
    expect(await sample(session, { messages: [ASK, use('a'), result('a')] as never, tools: [WEATHER_TOOL as never], maxTokens: 10 }, { maxToolRounds: 2 })).to.deep.equal(ANSWER);
  });

  it('[SAMP-018] selectModel honours hints in order, then the priorities', () => {
    const models = [
      { name: 'claude-3-5-haiku', cost: 0.9, speed: 0.9, intelligence: 0.5 },
      { name: 'claude-3-5-sonnet', cost: 0.5, speed: 0.6, intelligence: 0.8 },
      { name: 'gemini-1.5-pro', cost: 0.5, speed: 0.5, intelligence: 0.8 },
    ];
    expect(selectModel({ hints: [{ name: 'sonnet' }, { name: 'gemini' }] }, models)?.name).to.equal('claude-3-5-sonnet');
    expect(selectModel({ hints: [{ name: 'gpt-4o' }, { name: 'GEMINI' }] }, models)?.name, 'first hint unknown: the next').to.equal('gemini-1.5-pro');
    expect(selectModel({ hints: [{ name: 'claude' }], speedPriority: 1 }, models)?.name, 'among the hinted, by priority').to.equal('claude-3-5-haiku');
    expect(selectModel({ hints: [{ name: 'claude' }], intelligencePriority: 1 }, models)?.name).to.equal('claude-3-5-sonnet');
    expect(selectModel({ hints: [{ name: 'o1' }], costPriority: 1 }, models)?.name, 'no hint matches: priorities over all').to.equal('claude-3-5-haiku');
    expect(selectModel(undefined, [])).to.equal(undefined);
  });
});
