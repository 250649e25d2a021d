// Prompts and resources mounted like tools: server-everything's prompts namespaced, prompts/get
// and argument completions routed to it, its resources listed and read under their own URIs; and
// capabilities merged honestly: a gateway whose upstreams have no prompts or resources declares
// neither.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { firstValueFrom, timeout } from 'rxjs';
import { Client } from '../../lib/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const ARCHITECTURE = 'demo://resource/static/document/architecture.md';
const DYNAMIC = 'demo://resource/dynamic/text/{resourceId}';

describe('gateway: prompts, resources and completion mounted', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;

  before(async () => {
    gateway = createGateway({ servers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } }, stderr: 'ignore' });
    await gateway.start();
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0, logger: false });
  });
  after(async () => {
    await web?.close();
    await gateway?.close();
  });

  for (const era of ['modern', 'legacy'] as const) {
    describe(`a ${era}-era client`, () => {
      let client: Client;
      before(async () => {
        client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era });
        await client.connect(createStreamableHttpClientTransport(web.url));
      });
      after(() => client?.close());

      it('lists the upstream prompts namespaced, with their arguments, and gets one from it', async () => {
        const prompts = await client.listPrompts();
        expect(prompts.map((p) => p.name)).to.include.members(['everything__simple-prompt', 'everything__args-prompt', 'everything__completable-prompt']);
        expect(prompts.find((p) => p.name === 'everything__args-prompt')!.arguments).to.deep.equal([
          { name: 'city', description: 'Name of the city', required: true },
          { name: 'state', required: false },
        ]);
        const got = await client.getPrompt('everything__args-prompt', { city: 'Lisbon' });
        expect(JSON.stringify(got.messages)).to.contain('Lisbon');
      });

      it('a missing required argument is refused before the upstream is asked', async () => {
        const error = await client.getPrompt('everything__args-prompt', {}).then(() => undefined, (e: Error) => e);
        expect(error?.message).to.contain('city');
      });

      it("routes an argument's completion to the upstream", async () => {
        const result = await client.complete({ type: 'ref/prompt', name: 'everything__completable-prompt' }, { name: 'department', value: 'Eng' });
        expect(result.completion.values).to.deep.equal(['Engineering']);
      });

      it('lists the upstream resources under their own URIs and reads them from it', async () => {
        const resources = await client.listResources();
        expect(resources.map((r) => r.uri)).to.include(ARCHITECTURE);
        const read = await client.readResource(ARCHITECTURE);
        const first = read.contents[0] as { uri: string; text?: string };
        expect(first.uri).to.equal(ARCHITECTURE);
        expect(first.text).to.be.a('string').and.not.equal('');
      });

      it('lists the upstream resource templates (names namespaced), reads through one, completes its variable upstream', async () => {
        const templates = await client.listResourceTemplates();
        expect(templates.find((t) => t.uriTemplate === DYNAMIC)!.name).to.equal('everything__Dynamic Text Resource');
        const read = await client.readResource('demo://resource/dynamic/text/7');
        expect((read.contents[0] as { text?: string }).text).to.contain('7');
        // server-everything's completer echoes a positive integer and refuses anything else.
        const completed = await client.complete({ type: 'ref/resource', uri: DYNAMIC }, { name: 'resourceId', value: '42' });
        expect(completed.completion.values).to.deep.equal(['42']);
        const refused = await client.complete({ type: 'ref/resource', uri: DYNAMIC }, { name: 'resourceId', value: 'x' });
        expect(refused.completion.values).to.deep.equal([]);
      });

      it("an upstream resource's updates reach the subscribed downstream client", async function () {
        this.timeout(30_000);
        const updated = firstValueFrom(client.subscribe(ARCHITECTURE).pipe(timeout(20_000)));
        // server-everything sends updates of subscribed resources every 5 s once toggled on.
        await client.callTool('everything__toggle-subscriber-updates', {});
        try {
          expect((await updated).uri).to.equal(ARCHITECTURE);
        } finally {
          await client.callTool('everything__toggle-subscriber-updates', {});
        }
      });

      it('declares prompts, resources and completions, as its upstream has them', () => {
        expect(client.serverCapabilities).to.include.keys('tools', 'prompts', 'resources', 'completions');
      });
    });
  }

  it('an upstream with tools only: the gateway declares no prompts, resources or completions', async () => {
    const toolsOnly = createGateway({ servers: { echo: { command: process.execPath, args: [...tsArgs(path('../../examples/echo-server.ts'))] } }, stderr: 'ignore' });
    await toolsOnly.start();
    const served = await listen(createStreamableHttpHandler(toolsOnly.server.server), { port: 0, logger: false });
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' } });
    try {
      await client.connect(createStreamableHttpClientTransport(served.url));
      expect(client.serverCapabilities).to.include.keys('tools');
      expect(client.serverCapabilities).to.not.have.any.keys('prompts', 'resources', 'completions');
    } finally {
      await client.close();
      await served.close();
      await toolsOnly.close();
    }
  });
});
