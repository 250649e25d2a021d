import { expect } from 'chai';
import type { FormElicitationRequest, UrlElicitationRequest, ElicitationOptions } from '../../lib/client-features/elicitation.js';
import { pair, rejection } from './helpers.js';

const FORM = { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
const URL_PARAMS = { mode: 'url', elicitationId: 'el-1', url: 'https://auth.example.com/connect', message: 'Connect your account' };

async function elicitPair(options: ElicitationOptions) {
  return pair({ serverUnchecked: true, serverCapabilities: { tools: {} }, setup: (c) => c.onElicitation(options) });
}

describe('client features: elicitation controls', () => {
  it('[ELICIT-061] [ELICIT-068] form and URL handlers are told which server is asking', async () => {
    const forms: FormElicitationRequest[] = [];
    const urls: UrlElicitationRequest[] = [];
    const { session, client } = await elicitPair({
      form: (r) => {
        forms.push(r);
        return { action: 'decline' };
      },
      url: (r) => {
        urls.push(r);
        return 'decline';
      },
    });
    await session.request('elicitation/create', FORM);
    await session.request('elicitation/create', URL_PARAMS);
    expect(client.serverInfo?.name).to.be.a('string');
    expect(forms[0]!.server).to.deep.equal(client.serverInfo);
    expect(urls[0]!.server).to.deep.equal(client.serverInfo);
  });

  it('[ELICIT-038] elicitations over the rate limit are answered -32603 without reaching the user', async () => {
    let shown = 0;
    const { session, clock } = await elicitPair({
      form: () => {
        shown++;
        return { action: 'decline' };
      },
      rateLimit: { limit: 1, windowMs: 60_000 },
    });
    expect(await session.request('elicitation/create', FORM)).to.deep.equal({ action: 'decline' });
    const e = await rejection(session.request('elicitation/create', FORM));
    expect(e.code).to.equal(-32603);
    expect(e.message).to.match(/Too many elicitation requests; retry in 60000 ms/);
    expect(shown).to.equal(1);
    clock.advance(60_000);
    await session.request('elicitation/create', FORM);
    expect(shown).to.equal(2);
  });
});
