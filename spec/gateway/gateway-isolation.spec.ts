// Two downstream clients of one gateway, each answering elicitation differently: each gets its
// own answer back, and when both call at once on the shared upstream (whose request does not say
// which call it belongs to) neither ever receives the other's form or answer.
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
const ELICIT = 'everything__trigger-elicitation-request';

describe('gateway: downstream sessions stay isolated', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;
  const clients: Client[] = [];
  const asked = { alice: 0, bob: 0 };

  async function downstream(name: 'alice' | 'bob'): Promise<Client> {
    const client = new Client({ info: { name, version: '1.0.0' }, era: 'modern' });
    client.onElicitation({
      form: () => {
        asked[name] += 1;
        return { action: 'accept', content: { name: `answer-of-${name}` } };
      },
    });
    await client.connect(createStreamableHttpClientTransport(web.url));
    clients.push(client);
    return client;
  }

  before(async () => {
    gateway = createGateway({ servers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } }, stderr: 'ignore' });
    await gateway.start();
    await firstValueFrom(gateway.host.tools$.pipe(filter((ts) => ts.some((t) => t.name === ELICIT))));
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await web?.close();
    await gateway?.close();
  });

  it('two clients with different answers each get their own', async () => {
    const [alice, bob] = [await downstream('alice'), await downstream('bob')];
    const fromAlice = textOf(await alice.callTool(ELICIT, {}));
    const fromBob = textOf(await bob.callTool(ELICIT, {}));
    expect(fromAlice).to.contain('answer-of-alice').and.not.contain('answer-of-bob');
    expect(fromBob).to.contain('answer-of-bob').and.not.contain('answer-of-alice');
  });

  it('calls at once on the shared upstream: no answer crosses to the other caller', async () => {
    const [alice, bob] = clients as [Client, Client];
    asked.alice = 0;
    asked.bob = 0;
    const settle = (p: Promise<{ content?: unknown }>) => p.then(textOf, (e: Error) => e.message);
    const [fromAlice, fromBob] = await Promise.all([settle(alice.callTool(ELICIT, {})), settle(bob.callTool(ELICIT, {}))]);
    expect(fromAlice).to.not.contain('answer-of-bob');
    expect(fromBob).to.not.contain('answer-of-alice');
    // Neither form could be tied to one caller, so neither was shown to anyone.
    expect(asked).to.deep.equal({ alice: 0, bob: 0 });
  });
});
