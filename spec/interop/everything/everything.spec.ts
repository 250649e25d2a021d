// OUR Client against the reference server `@modelcontextprotocol/server-everything`, over stdio
// and over Streamable HTTP: initialization, every tool it offers (sampling, form and URL
// elicitation, progress, logging, roots, resource links, embedded resources, images, annotations,
// structured content, server-side tasks), resources (all pages), templates, subscriptions, prompts,
// completion and ping.
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { firstValueFrom, timeout } from 'rxjs';
import type { Progress } from '../../../lib/entries/client.js';
import { McpError } from '../../../lib/errors.js';
import type { JsonObject } from '../../../lib/jsonrpc/message.js';
import type { Task } from '../../../lib/protocol/schema/index.js';
import { everythingEntry, isAlive } from '../../fixtures/interop-everything/everything.js';
import { ClientTaskExecutor, ENV_MARKER, FORM_ANSWER, openEverything, ROOT, SAMPLING_MODEL, TRANSPORTS, type Everything } from './session.js';

/** Tools offered to a client that declares roots, sampling and form + URL elicitation (no tasks). */
const EXPECTED_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
  'get-roots-list',
  'trigger-elicitation-request',
  'trigger-url-elicitation',
  'trigger-sampling-request',
  'simulate-research-query',
];

const DOCS = readdirSync(join(dirname(everythingEntry()), 'docs')).sort();
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A content block, loosely typed for assertions. */
type Block = Record<string, any>;
const blocks = (r: { content?: unknown }): Block[] => (r.content ?? []) as Block[];
const texts = (r: { content?: unknown }): string[] => blocks(r).filter((b) => b.type === 'text').map((b) => b.text as string);
const allText = (r: { content?: unknown }): string => texts(r).join('\n');
const fromBase64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');

async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const kind of TRANSPORTS) {
  describe(`interop-everything: our client → server-everything over ${kind}`, function () {
    this.timeout(30_000);
    let e: Everything;
    let listedTools: string[] = [];

    before(async function () {
      this.timeout(20_000);
      e = await openEverything(kind);
    });

    after(async function () {
      this.timeout(15_000);
      if (!e) return;
      const pid = e.pid();
      await e.close();
      if (kind === 'streamable-http') {
        // close() ended the HTTP session with a DELETE before the server was stopped.
        expect(e.serverOutput()).to.match(/Received session termination request for session /);
      }
      if (pid !== undefined) {
        // close() kills what did not exit; give the OS a bounded moment to reap it.
        for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(50);
        expect(isAlive(pid), `server-everything (pid ${pid}) is still running after close`).to.equal(false);
      }
    });

    it('initializes: serverInfo, protocolVersion, capabilities, instructions', () => {
      expect(e.client.currentPhase).to.equal('operating');
      expect(e.client.protocolVersion).to.equal('2025-11-25');
      expect(e.client.serverInfo).to.deep.include({ name: 'mcp-servers/everything', version: '2.0.0', title: 'Everything Reference Server' });
      const caps = e.client.serverCapabilities as Record<string, any>;
      expect(caps.tools).to.deep.include({ listChanged: true });
      expect(caps.prompts).to.deep.include({ listChanged: true });
      expect(caps.resources).to.deep.include({ subscribe: true, listChanged: true });
      expect(caps).to.have.property('logging');
      expect(caps).to.have.property('completions');
      expect(caps.tasks).to.deep.include({ list: {}, cancel: {} });
      expect(caps.tasks.requests).to.deep.equal({ tools: { call: {} } });
      expect(e.client.instructions).to.be.a('string').and.not.equal('');
      if (kind === 'streamable-http') expect((e.transport as unknown as { sessionId?: string }).sessionId).to.be.a('string');
    });

    it('ping', async () => {
      await e.client.ping();
    });

    it('the server fetched our roots after initialization (roots/list answered)', async () => {
      const log = await e.waitForLog((l) => /Roots updated: 1 root/.test(String(l.data)), 10_000);
      expect(log.level).to.equal('info');
    });

    it('lists every tool, with schemas and annotations', async () => {
      let tools = await e.client.listTools();
      // The capability-dependent tools are registered in the server's `initialized` handler: a
      // loaded machine can take longer than a few polls to run it (bounded by time, not tries).
      for (const deadline = Date.now() + 15_000; !EXPECTED_TOOLS.every((n) => tools.some((t) => t.name === n)) && Date.now() < deadline; ) {
        await sleep(50);
        tools = await e.client.listTools();
      }
      listedTools = tools.map((t) => t.name);
      expect([...listedTools].sort()).to.deep.equal([...EXPECTED_TOOLS].sort());
      for (const tool of tools) {
        expect(tool.inputSchema, tool.name).to.deep.include({ type: 'object' });
        expect(tool.annotations, tool.name).to.have.property('readOnlyHint');
      }
      const structured = tools.find((t) => t.name === 'get-structured-content')!;
      expect(structured.outputSchema).to.deep.include({ type: 'object' });
      expect(Object.keys((structured.outputSchema as { properties: object }).properties)).to.have.members(['temperature', 'conditions', 'humidity']);
      expect(tools.find((t) => t.name === 'simulate-research-query')!.execution).to.deep.equal({ taskSupport: 'required' });
      // tools$ sees the same list.
      const live = await firstValueFrom(e.client.tools$.pipe(timeout(5000)));
      expect(live.map((t) => t.name).sort()).to.deep.equal([...listedTools].sort());
    });

    describe('tools', () => {
      it('echo', async () => {
        const r = await e.call('echo', { message: `hello over ${kind}` });
        expect(r.isError).to.not.equal(true);
        expect(texts(r)).to.deep.equal([`Echo: hello over ${kind}`]);
      });

      it('get-sum', async () => {
        const r = await e.call('get-sum', { a: 2, b: 3.5 });
        expect(texts(r)).to.deep.equal(['The sum of 2 and 3.5 is 5.5.']);
      });

      it('get-env shows the environment we gave the server', async () => {
        const r = await e.call('get-env', {});
        const env = JSON.parse(texts(r)[0]!) as Record<string, string>;
        expect(env[ENV_MARKER]).to.equal(kind);
      });

      it('get-annotated-message: annotated text and an annotated image', async () => {
        const r = await e.call('get-annotated-message', { messageType: 'error', includeImage: true });
        const [text, image] = blocks(r);
        expect(text).to.deep.equal({ type: 'text', text: 'Error: Operation failed', annotations: { priority: 1, audience: ['user', 'assistant'] } });
        expect(image).to.deep.include({ type: 'image', mimeType: 'image/png', annotations: { priority: 0.5, audience: ['user'] } });
        expect(Buffer.from(image!.data as string, 'base64').subarray(0, 8)).to.deep.equal(PNG_SIGNATURE);
        const debug = await e.call('get-annotated-message', { messageType: 'debug' });
        expect(blocks(debug)).to.have.length(1);
        expect(blocks(debug)[0]!.annotations).to.deep.equal({ priority: 0.3, audience: ['assistant'] });
      });

      it('get-tiny-image: an image content block (PNG)', async () => {
        const r = await e.call('get-tiny-image', {});
        expect(blocks(r).map((b) => b.type)).to.deep.equal(['text', 'image', 'text']);
        const image = blocks(r)[1]!;
        expect(image.mimeType).to.equal('image/png');
        expect(Buffer.from(image.data as string, 'base64').subarray(0, 8)).to.deep.equal(PNG_SIGNATURE);
      });

      it('get-structured-content: structuredContent, checked against the outputSchema', async () => {
        const r = await e.call('get-structured-content', { location: 'Chicago' });
        expect(r.structuredContent).to.deep.equal({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
        expect(JSON.parse(texts(r)[0]!)).to.deep.equal(r.structuredContent);
      });

      it('get-resource-links: resource_link blocks that read back', async () => {
        const r = await e.call('get-resource-links', { count: 4 });
        const links = blocks(r).filter((b) => b.type === 'resource_link');
        expect(links.map((l) => l.uri)).to.deep.equal([
          'demo://resource/dynamic/blob/1',
          'demo://resource/dynamic/text/2',
          'demo://resource/dynamic/blob/3',
          'demo://resource/dynamic/text/4',
        ]);
        for (const [i, link] of links.entries()) {
          expect(link.name).to.equal(`${i % 2 === 1 ? 'Text' : 'Blob'} Resource ${i + 1}`);
          const read = await e.client.readResource(link.uri as string);
          const [c] = read.contents as Record<string, any>[];
          expect(c!.uri).to.equal(link.uri);
          const body = c!.text ?? fromBase64(c!.blob as string);
          expect(body).to.match(new RegExp(`^Resource ${i + 1}: This is a `));
        }
      });

      it('get-resource-reference: an embedded text resource and an embedded blob resource', async () => {
        const text = await e.call('get-resource-reference', { resourceType: 'Text', resourceId: 2 });
        const embedded = blocks(text).find((b) => b.type === 'resource')!;
        expect(embedded.resource).to.deep.include({ uri: 'demo://resource/dynamic/text/2', mimeType: 'text/plain' });
        expect(embedded.resource.text).to.match(/^Resource 2: This is a plaintext resource/);
        const blob = await e.call('get-resource-reference', { resourceType: 'Blob', resourceId: 3 });
        const embeddedBlob = blocks(blob).find((b) => b.type === 'resource')!;
        expect(embeddedBlob.resource.uri).to.equal('demo://resource/dynamic/blob/3');
        expect(fromBase64(embeddedBlob.resource.blob as string)).to.match(/^Resource 3: This is a base64 blob/);
      });

      it('gzip-file-as-resource: a resource_link to a session resource, and an embedded blob', async () => {
        const original = `mcp-actors interop over ${kind}\n`.repeat(20);
        const data = `data:text/plain;base64,${Buffer.from(original).toString('base64')}`;
        const name = `interop-${kind}.txt.gz`;
        // Watch resources$ from before the resource exists.
        const lists: string[][] = [];
        let listed!: () => void;
        const firstList = new Promise<void>((resolve) => (listed = resolve));
        const watching = e.client.resources$.subscribe((list) => {
          lists.push(list.map((res) => res.uri));
          listed();
        });
        // Its first list is a resources/list round trip to the server process.
        await Promise.race([firstList, sleep(15_000)]);
        expect(lists, 'resources$ emitted its first list').to.have.length.at.least(1);
        const r = await e.call('gzip-file-as-resource', { name, data });
        expect(r.isError, allText(r)).to.not.equal(true);
        const [link] = blocks(r);
        expect(link).to.deep.include({ type: 'resource_link', uri: `demo://resource/session/${name}`, name, mimeType: 'application/gzip' });
        const read = await e.client.readResource(link!.uri as string);
        const [c] = read.contents as Record<string, any>[];
        expect(gunzipSync(Buffer.from(c!.blob as string, 'base64')).toString('utf8')).to.equal(original);
        // The server announced it (resources/list_changed): resources$ re-listed and shows it.
        try {
          expect(lists[0]).to.not.include(link!.uri);
          for (let i = 0; i < 200 && !lists.some((l) => l.includes(link!.uri as string)); i++) await sleep(50);
          expect(lists.some((l) => l.includes(link!.uri as string)), 'a re-list shows the new resource').to.equal(true);
        } finally {
          watching.unsubscribe();
        }

        const inline = await e.call('gzip-file-as-resource', { name: `inline-${name}`, data, outputType: 'resource' });
        const [embedded] = blocks(inline);
        expect(embedded!.type).to.equal('resource');
        expect(embedded!.resource.mimeType).to.equal('application/gzip');
        expect(gunzipSync(Buffer.from(embedded!.resource.blob as string, 'base64')).toString('utf8')).to.equal(original);
      });

      it('trigger-long-running-operation: onprogress sees increasing progress', async () => {
        const seen: Progress[] = [];
        const r = await e.call('trigger-long-running-operation', { duration: 1, steps: 4 }, { onprogress: (p) => seen.push(p) });
        expect(texts(r)[0]).to.equal('Long running operation completed. Duration: 1 seconds, Steps: 4.');
        expect(seen.map((p) => [p.progress, p.total])).to.deep.equal([
          [1, 4],
          [2, 4],
          [3, 4],
          [4, 4],
        ]);
      });

      it('get-roots-list: the server sees our roots', async () => {
        const r = await e.call('get-roots-list', {});
        expect(allText(r)).to.include('Current MCP Roots (1 total)');
        expect(allText(r)).to.include(ROOT.uri);
        expect(allText(r)).to.include(ROOT.name);
      });

      it('trigger-sampling-request: our onSampling handler answers', async () => {
        const before = e.samplingRequests.length;
        const r = await e.call('trigger-sampling-request', { prompt: 'Say hi in one word', maxTokens: 42 });
        expect(e.samplingRequests).to.have.length(before + 1);
        const req = e.samplingRequests[before]!;
        expect(req.maxTokens).to.equal(42);
        expect(req.systemPrompt).to.equal('You are a helpful test server.');
        expect(req.temperature).to.equal(0.7);
        expect(JSON.stringify(req.messages)).to.include('Say hi in one word');
        const text = allText(r);
        expect(text).to.include('LLM sampling result:');
        const result = JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
        expect(result).to.deep.include({ model: SAMPLING_MODEL, role: 'assistant', stopReason: 'endTurn' });
      });

      it('trigger-elicitation-request: our form handler accepts, defaults applied', async () => {
        const before = e.formRequests.length;
        const r = await e.call('trigger-elicitation-request', {});
        expect(e.formRequests).to.have.length(before + 1);
        const req = e.formRequests[before]!;
        expect(req.message).to.equal('Please provide inputs for the following fields:');
        expect(req.server).to.deep.include({ name: 'mcp-servers/everything' });
        expect(req.defaults).to.deep.include({ firstLine: 'It was a dark and stormy night.', integer: 42, untitledSingleSelectEnum: 'Monica' });
        const text = allText(r);
        expect(text).to.include('✅ User provided the requested information!');
        expect(text).to.include('- Name: Ada Lovelace');
        expect(text).to.include('- Email: ada@example.com');
        const raw = JSON.parse(text.slice(text.indexOf('Raw result: ') + 'Raw result: '.length)) as { action: string; content: Record<string, unknown> };
        expect(raw.action).to.equal('accept');
        // What we answered, plus the default of the field we left out (applyDefaults).
        expect(raw.content).to.deep.equal({ ...FORM_ANSWER, firstLine: 'It was a dark and stormy night.' });
      });

      it('trigger-url-elicitation (request path): our URL handler consents', async () => {
        const before = e.urlRequests.length;
        const url = `https://example.com/interop/${kind}/request`;
        const r = await e.call('trigger-url-elicitation', { url, message: 'Open this, please', elicitationId: `req-${kind}` });
        expect(e.urlRequests).to.have.length(before + 1);
        expect(e.urlRequests[before]).to.deep.include({ url, domain: 'example.com', punycode: false, elicitationId: `req-${kind}`, message: 'Open this, please', origin: 'request' });
        expect(allText(r)).to.include('✅ User completed the URL elicitation flow.');
        expect(allText(r)).to.include(`Elicitation ID: req-${kind}`);
      });

      it('trigger-url-elicitation (error path, -32042): onUrlElicitationRequired, then the retried call succeeds', async () => {
        const before = e.urlRequests.length;
        const url = `https://example.com/interop/${kind}/error`;
        const required: string[] = [];
        const r = await e.call(
          'trigger-url-elicitation',
          { url, errorPath: true },
          {
            onUrlElicitationRequired: (request, control) => {
              required.push(request.url);
              const sub = control.status$.subscribe((s) => {
                if (s.state === 'awaiting' || s.state === 'stale') queueMicrotask(() => control.retry());
              });
              control.signal.addEventListener('abort', () => sub.unsubscribe(), { once: true });
              return 'accept';
            },
          },
        );
        // The prerequisite pointed elsewhere; the retry went through the request path to our URL.
        expect(required).to.deep.equal(['https://modelcontextprotocol.io']);
        expect(e.urlRequests.slice(before).map((u) => [u.url, u.origin])).to.deep.equal([[url, 'request']]);
        expect(allText(r)).to.include('✅ User completed the URL elicitation flow.');
      });

      it('trigger-url-elicitation (error path) without a handler rejects with UrlElicitationRequiredError', async () => {
        const url = `https://example.com/interop/${kind}/no-handler`;
        const err = await rejectionOf(e.call('trigger-url-elicitation', { url, errorPath: true, elicitationId: `nh-${kind}` }));
        expect(err).to.be.instanceOf(McpError);
        expect((err as McpError).code).to.equal(-32042);
        expect(err.name).to.equal('UrlElicitationRequiredError');
        // The server keeps a one-shot marker: consume it so the server state is clean.
        await e.call('trigger-url-elicitation', { url, errorPath: true, elicitationId: `nh-${kind}` });
      });

      it('toggle-simulated-logging: setLoggingLevel("debug") and logs$ receives the simulated messages', async () => {
        await e.client.setLoggingLevel('debug');
        const from = e.logs.length;
        const on = await e.call('toggle-simulated-logging', {});
        expect(allText(on)).to.match(/^Started simulated, random-leveled logging/);
        try {
          const log = await e.waitForLog((l) => e.logs.indexOf(l) >= from && /(-level message|level-message)/.test(String(l.data)), 15_000);
          expect(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']).to.include(log.level);
        } finally {
          const off = await e.call('toggle-simulated-logging', {});
          expect(allText(off)).to.match(/^Stopped simulated logging/);
        }
      });

      it('toggle-subscriber-updates: a subscribed resource gets notifications/resources/updated', async () => {
        const uri = 'demo://resource/static/document/features.md';
        const updates = e.client.subscribe(uri);
        const first = firstValueFrom(updates.pipe(timeout(15_000)));
        // The server logs the subscribe before answering it: then it is registered.
        await e.waitForLog((l) => String(l.data).startsWith(`Received Subscribe Resource request for URI: ${uri}`), 10_000);
        const on = await e.call('toggle-subscriber-updates', {});
        expect(allText(on)).to.match(/^Started simulated resource updated notifications/);
        try {
          expect(await first).to.deep.equal({ uri });
        } finally {
          const off = await e.call('toggle-subscriber-updates', {});
          expect(allText(off)).to.match(/^Stopped simulated resource updates/);
        }
        // The last observer left: resources/unsubscribe went out.
        await e.waitForLog((l) => String(l.data).startsWith(`Received Unsubscribe Resource request: ${uri}`), 10_000);
      });

      it('simulate-research-query: a server-side task (tools/call with task, tasks/get, tasks/list, tasks/result)', async () => {
        const created = await e.client.request('tools/call', { name: 'simulate-research-query', arguments: { topic: 'actors' }, task: { ttl: 60_000 } });
        e.called.add('simulate-research-query');
        const task = created.task as unknown as Task;
        expect(task.taskId).to.be.a('string');
        expect(task.status).to.equal('working');
        const listed = (await e.client.request('tasks/list')) as { tasks: Task[] };
        expect(listed.tasks.map((t) => t.taskId)).to.include(task.taskId);
        let status = task.status as string;
        const messages: string[] = [];
        for (let i = 0; i < 100 && status !== 'completed' && status !== 'failed'; i++) {
          await sleep(200);
          const got = (await e.client.request('tasks/get', { taskId: task.taskId })) as unknown as Task;
          status = got.status;
          if (got.statusMessage) messages.push(got.statusMessage);
        }
        expect(status).to.equal('completed');
        expect(messages).to.include('Gathering sources...');
        const result = (await e.client.request('tasks/result', { taskId: task.taskId })) as JsonObject;
        expect(allText(result)).to.match(/^# Research Report: actors/);
        // The server also pushed notifications/tasks/status for it, up to completed.
        for (let i = 0; i < 100 && !e.taskStatuses.some((t) => t.taskId === task.taskId && t.status === 'completed'); i++) await sleep(50);
        expect(e.taskStatuses.filter((t) => t.taskId === task.taskId).map((t) => t.status)).to.include.members(['working', 'completed']);
      });

      it('simulate-research-query (ambiguous): the task asks our form handler through tasks/result', async () => {
        const before = e.formRequests.length;
        const created = await e.client.request('tools/call', {
          name: 'simulate-research-query',
          arguments: { topic: 'python', ambiguous: true },
          task: { ttl: 60_000 },
        });
        const task = created.task as unknown as Task;
        // tasks/result blocks until the task ends; the queued elicitation comes on its way.
        const result = (await e.client.request('tasks/result', { taskId: task.taskId }, { timeout: 25_000 })) as JsonObject;
        expect(e.formRequests.length).to.equal(before + 1);
        expect(e.formRequests[before]!.message).to.include('"python" could have multiple interpretations');
        expect(allText(result)).to.include('# Research Report: python (snake)');
      });

      it('every listed tool was called', () => {
        expect(listedTools.length, 'tools were listed').to.be.above(0);
        expect(listedTools.filter((n) => !e.called.has(n))).to.deep.equal([]);
      });
    });

    describe('resources', () => {
      it('lists every static document (all pages) and reads each', async () => {
        const all = await e.client.listResources();
        const paged: string[] = [];
        let pageCount = 0;
        for await (const page of e.client.pagesOfResources()) {
          pageCount++;
          paged.push(...page.resources.map((r) => r.uri));
        }
        expect(pageCount).to.be.at.least(1);
        expect(paged).to.deep.equal(all.map((r) => r.uri));
        const statics = all.filter((r) => r.uri.startsWith('demo://resource/static/document/'));
        expect(statics.map((r) => r.name).sort()).to.deep.equal(DOCS);
        for (const res of statics) {
          const read = await e.client.readResource(res.uri);
          const [c] = read.contents as Record<string, any>[];
          expect(c!.uri).to.equal(res.uri);
          expect(c!.mimeType).to.equal('text/markdown');
          expect(c!.text).to.be.a('string').and.not.equal('');
          expect(c!.text).to.not.match(/^Error reading file/);
        }
      });

      it('lists the resource templates and reads an expanded one of each', async () => {
        const templates = await e.client.listResourceTemplates();
        expect(templates.map((t) => t.uriTemplate).sort()).to.deep.equal(['demo://resource/dynamic/blob/{resourceId}', 'demo://resource/dynamic/text/{resourceId}']);
        for (const t of templates) {
          const uri = t.uriTemplate.replace('{resourceId}', '7');
          const read = await e.client.readResource(uri);
          const [c] = read.contents as Record<string, any>[];
          expect(c!.uri).to.equal(uri);
          const body = t.uriTemplate.includes('/text/') ? (c!.text as string) : fromBase64(c!.blob as string);
          expect(body).to.match(/^Resource 7: This is a (plaintext resource|base64 blob) created at /);
        }
      });

      it('reading an unknown resource fails with an McpError', async () => {
        const err = await rejectionOf(e.client.readResource('demo://resource/dynamic/text/not-a-number'));
        expect(err).to.be.instanceOf(McpError);
      });
    });

    describe('prompts', () => {
      it('lists the prompts with their arguments', async () => {
        const prompts = await e.client.listPrompts();
        expect(prompts.map((p) => p.name).sort()).to.deep.equal(['args-prompt', 'completable-prompt', 'resource-prompt', 'simple-prompt']);
        const args = prompts.find((p) => p.name === 'args-prompt')!;
        expect(args.arguments!.map((a) => [a.name, a.required ?? false])).to.deep.equal([
          ['city', true],
          ['state', false],
        ]);
      });

      it('gets every prompt with its required arguments', async () => {
        const simple = await e.client.getPrompt('simple-prompt');
        expect(simple.messages).to.deep.equal([{ role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } }]);
        const args = await e.client.getPrompt('args-prompt', { city: 'Lyon' });
        expect((args.messages[0]!.content as Block).text).to.equal("What's weather in Lyon?");
        const both = await e.client.getPrompt('args-prompt', { city: 'Austin', state: 'Texas' });
        expect((both.messages[0]!.content as Block).text).to.equal("What's weather in Austin, Texas?");
        const team = await e.client.getPrompt('completable-prompt', { department: 'Sales', name: 'Eve' });
        expect((team.messages[0]!.content as Block).text).to.equal('Please promote Eve to the head of the Sales team.');
        const res = await e.client.getPrompt('resource-prompt', { resourceType: 'Text', resourceId: '5' });
        expect(res.messages).to.have.length(2);
        const embedded = res.messages[1]!.content as Block;
        expect(embedded.type).to.equal('resource');
        expect(embedded.resource.uri).to.equal('demo://resource/dynamic/text/5');
      });

      it('a missing required argument is an McpError', async () => {
        const err = await rejectionOf(e.client.getPrompt('args-prompt', {}));
        expect(err).to.be.instanceOf(McpError);
        expect((err as McpError).code).to.equal(-32602);
      });
    });

    describe('completion', () => {
      it('completes a prompt argument, and a second one with context', async () => {
        const dept = await e.client.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'S' });
        expect(dept.completion.values).to.deep.equal(['Sales', 'Support']);
        const name = await e.client.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'name', value: '' }, { arguments: { department: 'Engineering' } });
        expect(name.completion.values).to.deep.equal(['Alice', 'Bob', 'Charlie']);
        const type = await e.client.complete({ type: 'ref/prompt', name: 'resource-prompt' }, { name: 'resourceType', value: 'B' });
        expect(type.completion.values).to.deep.equal(['Blob']);
      });

      it('completes a resource template variable', async () => {
        const ok = await e.client.complete({ type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, { name: 'resourceId', value: '12' });
        expect(ok.completion.values).to.deep.equal(['12']);
        const none = await e.client.complete({ type: 'ref/resource', uri: 'demo://resource/dynamic/blob/{resourceId}' }, { name: 'resourceId', value: 'x' });
        expect(none.completion.values).to.deep.equal([]);
      });
    });

    describe('end', () => {
      it('ping again: the session is still operating after everything above', async () => {
        await e.client.ping();
        expect(e.client.currentPhase).to.equal('operating');
      });

      it('nothing went wrong quietly: no session diagnostics, no client warning but the legacy-era notice', () => {
        expect(e.diagnostics.map((d) => `${d.kind}: ${d.message}`)).to.deep.equal([]);
        // server-everything is a session-era server: the default era says once that it fell back, nothing else.
        expect(e.warnings.map((w) => w.kind)).to.deep.equal(['legacy-era']);
      });
    });
  });

  describe(`interop-everything: client-side tasks, our client → server-everything over ${kind}`, function () {
    this.timeout(30_000);
    let e: Everything;
    const executor = new ClientTaskExecutor();

    before(async function () {
      this.timeout(20_000);
      e = await openEverything(kind, { clientTasks: executor });
    });

    after(async function () {
      this.timeout(15_000);
      if (!e) return;
      const pid = e.pid();
      await e.close();
      for (let i = 0; pid !== undefined && i < 100 && isAlive(pid); i++) await sleep(50);
      expect(pid !== undefined && isAlive(pid), `server-everything (pid ${pid}) is still running after close`).to.equal(false);
    });

    it('declaring tasks.requests.* makes the server offer the async tools', async () => {
      let names: string[] = [];
      // Registered in the server's `initialized` handler (bounded by time: a loaded machine is slow to run it).
      for (let i = 0, deadline = Date.now() + 15_000; !names.includes('trigger-sampling-request-async') && (i === 0 || Date.now() < deadline); i++) {
        if (i > 0) await sleep(50);
        names = (await e.client.listTools()).map((t) => t.name);
      }
      expect(names).to.include.members(['trigger-sampling-request-async', 'trigger-elicitation-request-async', 'trigger-sampling-request', 'trigger-elicitation-request']);
      // No roots declared, no URL elicitation: those tools are not offered.
      expect(names).to.not.include('get-roots-list');
      expect(names).to.not.include('trigger-url-elicitation');
    });

    it('trigger-sampling-request-async: sampling runs as a client task the server polls', async () => {
      const before = executor.tasks.size;
      const r = await e.call('trigger-sampling-request-async', { prompt: 'async hello', maxTokens: 30 });
      const text = allText(r);
      expect(text, text).to.match(/^\[COMPLETED\] Async sampling completed!/);
      expect(text).to.include(SAMPLING_MODEL);
      expect(executor.tasks.size).to.equal(before + 1);
      expect(executor.augmented).to.include('sampling/createMessage');
      expect(e.samplingRequests.at(-1)!.maxTokens).to.equal(30);
    });

    it('trigger-elicitation-request-async: elicitation runs as a client task the server polls', async () => {
      const r = await e.call('trigger-elicitation-request-async', {});
      const text = allText(r);
      expect(text, text).to.include('[COMPLETED] User provided the requested information!');
      expect(text).to.include('- Name: Ada');
      expect(text).to.include('- Favorite Color: Red');
      expect(executor.augmented).to.include('elicitation/create');
    });

    it('trigger-sampling-request (not task-augmented) is answered directly', async () => {
      const r = await e.call('trigger-sampling-request', { prompt: 'plain', maxTokens: 5 });
      expect(allText(r)).to.include('LLM sampling result:');
    });

    it('nothing went wrong quietly: no session diagnostics, no client warning but the legacy-era notice', () => {
      expect(e.diagnostics.map((d) => `${d.kind}: ${d.message}`)).to.deep.equal([]);
      // server-everything is a session-era server: the default era says once that it fell back, nothing else.
      expect(e.warnings.map((w) => w.kind)).to.deep.equal(['legacy-era']);
    });
  });
}
