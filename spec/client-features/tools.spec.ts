import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { OutputSchemaError, PaginationLoopError } from '../../lib/client-features/client-feature-errors.js';
import { CapabilityError, RequestTimeoutError } from '../../lib/errors.js';
import type { Tool } from '../../lib/protocol/schema/index.js';
import { flush, pair, rejection } from './helpers.js';

const weatherSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    temperature: { type: 'number' },
    conditions: { $ref: '#/$defs/conditions' },
  },
  required: ['temperature', 'conditions'],
  additionalProperties: false,
  $defs: { conditions: { type: 'string', enum: ['sunny', 'rainy'] } },
};

const TOOLS: Tool[] = [
  { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'weather', inputSchema: { type: 'object' }, outputSchema: weatherSchema as Tool['outputSchema'] },
  {
    name: 'legacy',
    inputSchema: { type: 'object' },
    outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], definitions: {} },
  },
  { name: 'odd', inputSchema: { type: 'object' }, outputSchema: { $schema: 'https://example.com/my-dialect', type: 'object' } },
];

/** A server with TOOLS served in pages of `pageSize`, cursors opaque strings. */
async function toolServer(pageSize = 2, results: Record<string, unknown> = {}) {
  const cursorsSeen: (string | undefined)[] = [];
  const p = await pair({
    serverCapabilities: { tools: { listChanged: true } },
    setup: (_client, server) => {
      server.onRequest('tools/list', (params) => {
        const cursor = params?.cursor as string | undefined;
        cursorsSeen.push(cursor);
        const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, 'base64url').toString().slice(4));
        const page = TOOLS.slice(start, start + pageSize);
        const next = start + pageSize < TOOLS.length ? Buffer.from(`pos:${start + pageSize}`).toString('base64url') : undefined;
        return next === undefined ? { tools: page } : { tools: page, nextCursor: next };
      });
      server.onRequest('tools/call', (params) => {
        const name = params?.name as string;
        if (name in results) return results[name] as any;
        return { content: [{ type: 'text', text: JSON.stringify(params?.arguments ?? null) }] };
      });
    },
  });
  return { ...p, cursorsSeen };
}

describe('client features: tools', () => {
  describe('listing and pagination', () => {
    it('[PAGE-001] [PAGE-004] [PAGE-006] [PAGE-007] listTools follows every nextCursor as an opaque token and stops when it is absent', async () => {
      const { client, cursorsSeen } = await toolServer(3);
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal(['echo', 'weather', 'legacy', 'odd']);
      // The cursor went back exactly as the server sent it (not decoded, not rebuilt).
      expect(cursorsSeen).to.deep.equal([undefined, Buffer.from('pos:3').toString('base64url')]);
    });

    it('[PAGE-005] a server that does not paginate (no nextCursor) is one page', async () => {
      const { client, cursorsSeen } = await toolServer(100);
      expect((await client.listTools()).length).to.equal(4);
      expect(cursorsSeen).to.deep.equal([undefined]);
    });

    it('[PAGE-001] pagesOfTools yields each page as the server sized it', async () => {
      const { client } = await toolServer(3);
      const sizes: number[] = [];
      for await (const page of client.pagesOfTools()) sizes.push(page.tools.length);
      expect(sizes).to.deep.equal([3, 1]);
    });

    it('a server that repeats a cursor stops the listing with PaginationLoopError', async () => {
      const { client, server } = await pair({ serverCapabilities: { tools: {} } });
      server.onRequest('tools/list', () => ({ tools: [], nextCursor: 'same' }));
      const err = await rejection(client.listTools());
      expect(err).to.be.instanceOf(PaginationLoopError);
      expect(err.message).to.contain('"same"');
    });

    it('keeps schemas verbatim: $schema, $defs and additionalProperties survive listing and validation', async () => {
      const { client } = await toolServer(10, { weather: { content: [], structuredContent: { temperature: 20, conditions: 'sunny' } } });
      const tools = await client.listTools();
      await client.callTool('weather', {});
      expect(tools[1]!.outputSchema).to.deep.equal(weatherSchema);
      expect(Object.keys(tools[1]!.outputSchema!)).to.deep.equal(Object.keys(weatherSchema));
    });

    it('listing from a server without the tools capability fails before sending', async () => {
      const { client, received } = await pair({ serverCapabilities: {} });
      expect(await rejection(client.listTools())).to.be.instanceOf(CapabilityError);
      expect(received).to.not.include('tools/list');
    });
  });

  describe('callTool and outputSchema', () => {
    it('sends name and arguments and returns the result', async () => {
      const { client } = await toolServer();
      const r = await client.callTool('echo', { text: 'hi' });
      expect(r.content).to.deep.equal([{ type: 'text', text: '{"text":"hi"}' }]);
    });

    it('[TOOL-011] [TOOL-018] accepts structuredContent that conforms to the listed outputSchema', async () => {
      const { client } = await toolServer(10, { weather: { content: [], structuredContent: { temperature: 21.5, conditions: 'rainy' } } });
      await client.listTools();
      const r = await client.callTool('weather', { city: 'Paris' });
      expect(r.structuredContent).to.deep.equal({ temperature: 21.5, conditions: 'rainy' });
    });

    it('[TOOL-011] an outputSchema mismatch rejects with OutputSchemaError naming the problems', async () => {
      const { client } = await toolServer(10, { weather: { content: [], structuredContent: { temperature: 'hot', conditions: 'foggy', extra: 1 } } });
      await client.listTools();
      const err = await rejection(client.callTool('weather', {}));
      expect(err).to.be.instanceOf(OutputSchemaError);
      expect(err.tool).to.equal('weather');
      const locations = err.issues.map((i: any) => i.instanceLocation);
      expect(locations).to.include('#/temperature');
      expect(locations).to.include('#/conditions');
      expect(err.message).to.contain('does not match its outputSchema');
      expect(err.result.structuredContent.temperature).to.equal('hot');
    });

    it('[TOOL-011] a tool with an outputSchema that returns no structuredContent is an OutputSchemaError', async () => {
      const { client } = await toolServer(10, { weather: { content: [{ type: 'text', text: '20' }] } });
      await client.listTools();
      const err = await rejection(client.callTool('weather', {}));
      expect(err).to.be.instanceOf(OutputSchemaError);
      expect(err.message).to.contain('missing');
    });

    it('error results (isError) are not checked against the outputSchema', async () => {
      const { client } = await toolServer(10, { weather: { content: [{ type: 'text', text: 'down' }], isError: true } });
      await client.listTools();
      expect((await client.callTool('weather', {})).isError).to.equal(true);
    });

    it('honours $schema: a draft-07 schema is validated as draft-07', async () => {
      const { client } = await toolServer(10, { legacy: { content: [], structuredContent: { n: 1.5 } } });
      await client.listTools();
      const err = await rejection(client.callTool('legacy', {}));
      expect(err).to.be.instanceOf(OutputSchemaError);
      expect(err.issues[0].instanceLocation).to.equal('#/n');
    });

    it('a schema in an unknown dialect is not checked, and a warning says so', async () => {
      const { client } = await toolServer(10, { odd: { content: [], structuredContent: { anything: true } } });
      const warnings: string[] = [];
      client.warnings$.subscribe((w) => warnings.push(w.kind));
      await client.listTools();
      await client.callTool('odd', {});
      expect(warnings).to.deep.equal(['unknown-schema-dialect']);
    });

    it('[TOOL-019] a tool call times out (default 60 s, or its own timeout) and is cancelled on the wire', async () => {
      const { client, clock, server, clientOut } = await pair({ serverCapabilities: { tools: {} } });
      server.onRequest('tools/call', () => new Promise(() => {}));
      const p = client.callTool('slow', {}, { timeout: 5000 });
      await flush();
      clock.advance(5000);
      const err = await rejection(p);
      expect(err).to.be.instanceOf(RequestTimeoutError);
      expect(clientOut.some((f) => f.method === 'notifications/cancelled')).to.equal(true);
    });

    it('tools never listed are not validated; validateOutput: false skips the check', async () => {
      const { client } = await toolServer(10, { weather: { content: [], structuredContent: { temperature: 'x' } } });
      await client.callTool('weather', {});
      await client.listTools();
      await client.callTool('weather', {}, { validateOutput: false });
    });
  });

  describe('tools$ and list_changed', () => {
    it('lists on first subscription and re-lists after notifications/tools/list_changed (debounced)', async () => {
      const { client, clock, session, received } = await toolServer(10);
      const seen: string[][] = [];
      client.tools$.subscribe((t) => seen.push(t.map((x) => x.name)));
      await flush();
      expect(seen).to.have.length(1);
      TOOLS.push({ name: 'added', inputSchema: { type: 'object' } });
      try {
        session.notify('notifications/tools/list_changed');
        await flush();
        expect(received.filter((m) => m === 'tools/list')).to.have.length(1);
        clock.advance(50);
        await flush();
        expect(seen).to.have.length(2);
        expect(seen[1]).to.include('added');
      } finally {
        TOOLS.pop();
      }
    });

    it('a list_changed storm is debounced and bounded: at most one re-list in flight and one pending', async () => {
      const gates: (() => void)[] = [];
      const { client, clock, session, server, received } = await pair({ serverCapabilities: { tools: { listChanged: true } } });
      let version = 0;
      server.onRequest('tools/list', () => {
        const v = ++version;
        return new Promise((resolve) => gates.push(() => resolve({ tools: [{ name: `v${v}`, inputSchema: { type: 'object' } }] })));
      });
      const seen: string[] = [];
      client.tools$.subscribe((t) => seen.push(t[0]!.name));
      await flush();
      gates.shift()!();
      await flush();
      expect(seen).to.deep.equal(['v1']);
      const lists = () => received.filter((m) => m === 'tools/list').length;

      // 100 notifications in one burst: one re-list after the quiet time.
      for (let i = 0; i < 100; i++) session.notify('notifications/tools/list_changed');
      await flush();
      clock.advance(49);
      expect(lists()).to.equal(1);
      clock.advance(1);
      await flush();
      expect(lists()).to.equal(2);

      // While that re-list is in flight, more bursts: they coalesce into one pending re-list.
      for (let burst = 0; burst < 5; burst++) {
        for (let i = 0; i < 20; i++) session.notify('notifications/tools/list_changed');
        await flush();
        clock.advance(50);
        await flush();
      }
      expect(lists()).to.equal(2);
      gates.shift()!();
      await flush();
      expect(lists()).to.equal(3);
      gates.shift()!();
      await flush();
      expect(lists()).to.equal(3);
      expect(seen).to.deep.equal(['v1', 'v2', 'v3']);
    });

    it('tools$ is empty for a server without tools, and completes when the session closes', async () => {
      const { client } = await pair({ serverCapabilities: {} });
      const seen: Tool[][] = [];
      let completed = false;
      client.tools$.subscribe({ next: (t) => seen.push(t), complete: () => (completed = true) });
      await flush();
      expect(seen).to.deep.equal([[]]);
      await client.close();
      await flush();
      expect(completed).to.equal(true);
    });

    it('without observers or an earlier listing, list_changed costs nothing', async () => {
      const { client, clock, session, received } = await toolServer();
      session.notify('notifications/tools/list_changed');
      await flush();
      clock.advance(1000);
      await flush();
      expect(received).to.not.include('tools/list');
      expect(client).to.be.instanceOf(Client);
    });
  });
});
