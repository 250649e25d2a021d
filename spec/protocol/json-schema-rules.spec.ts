import { expect } from 'chai';
import { createServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { UnusableOutputSchemaError } from '../../lib/client-features/client-feature-errors.js';
import { schemaDialect, schemaProblems } from '../../lib/protocol/json-schema-rules.js';
import type { Tool } from '../../lib/protocol/schema/index.js';
import { connect, makeServer } from '../server-features/helpers.js';
import { pair, rejection } from '../client-features/helpers.js';

/** A loopback HTTP server that counts requests: a `$ref` target nobody may fetch. */
async function countingServer(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: HttpServer = createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/schema+json');
    res.end(JSON.stringify({ type: 'string' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/schemas/name.json`, hits: () => hits, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * A loopback TCP listener that counts connections: an `https://127.0.0.1:<port>/...` `$ref`
 * target. Any attempt to fetch it (HTTP or TLS) would connect first.
 */
async function countingPort(): Promise<{ base: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `https://127.0.0.1:${port}`, connections: () => connections, close: () => new Promise((r) => server.close(() => r())) };
}

/** Every way a tool schema can point at `base` (a network URI): each must be refused, none fetched. */
const networkPointers = (base: string): Record<string, Record<string, unknown>> => ({
  absolute: { type: 'object', properties: { name: { $ref: `${base}/schemas/name.json` } } },
  'protocol-relative': { type: 'object', properties: { name: { $ref: `//${base.slice('https://'.length)}/schemas/name.json` } } },
  'relative under a network $id': { $id: `${base}/schemas/person.json`, type: 'object', properties: { name: { $ref: 'name.json' } } },
  'in $defs': { type: 'object', properties: { name: { $ref: '#/$defs/name' } }, $defs: { name: { allOf: [{ $ref: `${base}/schemas/name.json#/$defs/n` }] } } },
  $dynamicRef: { type: 'object', properties: { name: { $dynamicRef: `${base}/schemas/name.json#meta` } } },
  $recursiveRef: { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { name: { $recursiveRef: `${base}/schemas/name.json` } } },
});

const nested = (depth: number): Record<string, unknown> => {
  let s: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) s = { type: 'object', properties: { x: s } };
  return s;
};

describe('protocol/json-schema-rules: the JSON Schema rules of 2026-07-28, on both sides', () => {
  describe('the rules', () => {
    it('[BASE-084] [BASE-086] reads 2020-12 without $schema, and the dialects we support when $schema names them', () => {
      expect(schemaDialect({ type: 'object' })).to.equal('2020-12');
      expect(schemaDialect({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).to.equal('2020-12');
      expect(schemaDialect({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).to.equal('2019-09');
      expect(schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#' })).to.equal('7');
      expect(schemaDialect({ $schema: 'http://json-schema.org/draft-04/schema#' })).to.equal('4');
      expect(schemaDialect({ $schema: 'https://example.com/draft-07-lookalike' })).to.equal(undefined);
      expect(schemaDialect({ type: 'object' }, '2025-06-18')).to.equal('7');
    });

    it('[BASE-088] names an unsupported dialect and what is supported, instead of validating it as another', () => {
      const [problem, ...rest] = schemaProblems({ $schema: 'https://example.com/my-dialect', type: 'object' });
      expect(rest).to.deep.equal([]);
      expect(problem).to.deep.include({ kind: 'dialect', at: '/$schema' });
      expect(problem!.message).to.contain('"https://example.com/my-dialect" is not supported').and.contain('2020-12');
    });

    it('[BASE-090] [BASE-087] refuses keywords whose values are invalid in the declared dialect, with where they are', () => {
      const problems = schemaProblems({
        type: 'object',
        properties: { a: { type: 'text' }, b: { minLength: -1 }, c: { pattern: '(' }, d: { items: [{ type: 'string' }] } },
        required: 'a',
      });
      expect(problems.map((p) => p.at)).to.have.members(['/properties/a/type', '/properties/b/minLength', '/properties/c/pattern', '/properties/d/items', '/required']);
      expect(problems.every((p) => p.kind === 'invalid')).to.equal(true);
      // The same tuple form is valid draft-07.
      expect(schemaProblems({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }] })).to.deep.equal([]);
      // draft-04's boolean exclusiveMaximum is invalid in 2020-12, and the reverse.
      expect(schemaProblems({ $schema: 'http://json-schema.org/draft-04/schema#', maximum: 3, exclusiveMaximum: true })).to.deep.equal([]);
      expect(schemaProblems({ maximum: 3, exclusiveMaximum: true }).map((p) => p.at)).to.deep.equal(['/exclusiveMaximum']);
    });

    it('[BASE-091] [BASE-093] resolves $ref only inside the schema ($defs, $id, $anchor) and refuses one that leaves it', () => {
      const local = {
        $id: 'https://example.com/person.json',
        type: 'object',
        properties: {
          name: { $ref: '#/$defs/name' },
          alias: { $ref: 'https://example.com/person.json#/$defs/name' },
          tag: { $ref: '#tag' },
          address: { $ref: 'address.json' },
        },
        $defs: { name: { type: 'string' }, tag: { $anchor: 'tag', type: 'string' }, address: { $id: 'address.json', type: 'object' } },
      };
      expect(schemaProblems(local)).to.deep.equal([]);
      const outside = schemaProblems({ type: 'object', properties: { a: { $ref: 'https://example.com/elsewhere.json' }, b: { $ref: '#/$defs/missing' }, c: { $ref: '#nope' } } });
      expect(outside.map((p) => [p.kind, p.at])).to.deep.equal([
        ['unresolved-ref', '/properties/a/$ref'],
        ['unresolved-ref', '/properties/b/$ref'],
        ['unresolved-ref', '/properties/c/$ref'],
      ]);
      expect(outside[0]!.message).to.contain('never fetch');
    });

    it('[BASE-093] refuses $dynamicRef and a $recursiveRef other than "#": the validator would skip them, accepting anything there', () => {
      const dynamic = { type: 'object', properties: { n: { $dynamicRef: '#n' } }, $defs: { n: { $dynamicAnchor: 'n', type: 'integer' } } };
      expect(schemaProblems(dynamic).map((p) => [p.kind, p.at])).to.deep.equal([['invalid', '/properties/n/$dynamicRef']]);
      expect(schemaProblems(dynamic)[0]!.message).to.contain('use $ref');
      const recursive = { $schema: 'https://json-schema.org/draft/2019-09/schema', $recursiveAnchor: true, type: 'object', properties: { x: { $recursiveRef: '#/$defs/x' } }, $defs: { x: { type: 'integer' } } };
      expect(schemaProblems(recursive).map((p) => [p.kind, p.at])).to.deep.equal([['invalid', '/properties/x/$recursiveRef']]);
      // "#" is what the validator checks: still usable.
      expect(schemaProblems({ ...recursive, properties: { x: { $recursiveRef: '#' } } })).to.deep.equal([]);
      // A network one is refused as leaving the schema, too.
      const remote = schemaProblems({ properties: { x: { $dynamicRef: 'https://example.com/s.json#x' } } });
      expect(remote.map((p) => p.kind)).to.have.members(['invalid', 'unresolved-ref']);
      expect(remote.find((p) => p.kind === 'unresolved-ref')!.message).to.contain('$dynamicRef').and.contain('never fetch');
    });

    it('[BASE-094] bounds the depth and the number of subschemas, and stops walking at the bound', () => {
      expect(schemaProblems(nested(30))).to.deep.equal([]);
      expect(schemaProblems(nested(200)).map((p) => p.kind)).to.deep.equal(['too-deep']);
      const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
      expect(schemaProblems(wide).map((p) => p.kind)).to.deep.equal(['too-large']);
      expect(schemaProblems(nested(20), undefined, { maxDepth: 10 }).map((p) => p.kind)).to.deep.equal(['too-deep']);
    });
  });

  describe('a server refuses at registration what clients could not use', () => {
    it('[BASE-088] [BASE-090] [TOOL-045] an unsupported dialect or an invalid schema is a registration error that says why', () => {
      const { mcp } = makeServer();
      expect(() => mcp.registerTool('odd', { inputSchema: { $schema: 'https://example.com/my-dialect', type: 'object' } as never }, () => 'x')).to.throw(
        TypeError,
        /input schema of tool "odd" is not a usable JSON Schema: \/\$schema: the JSON Schema dialect "https:\/\/example.com\/my-dialect" is not supported/,
      );
      expect(() => mcp.registerTool('bad', { inputSchema: { type: 'object', properties: { n: { type: 'int' } } } as never }, () => 'x')).to.throw(TypeError, /\/properties\/n\/type/);
    });

    it('[BASE-091] [BASE-093] a network $ref is refused at registration, and nothing is fetched', async () => {
      const target = await countingServer();
      try {
        const { mcp } = makeServer();
        expect(() =>
          mcp.registerTool('remote', { inputSchema: { type: 'object', properties: { name: { $ref: target.url } } } as never }, () => 'x'),
        ).to.throw(TypeError, /points outside the schema/);
        expect(() =>
          mcp.registerTool('remote_out', { inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { name: { $ref: target.url } } } as never }, () => 'x'),
        ).to.throw(TypeError, /output schema of tool "remote_out"/);
        // A local $ref works as before.
        mcp.registerTool('local', { inputSchema: { type: 'object', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'integer' } } } as never }, (a) => String((a as { n?: unknown }).n));
        const { client } = await connect(mcp);
        expect(await client.callTool('local', { n: 3 })).to.deep.include({ content: [{ type: 'text', text: '3' }] });
        const refused = await client.callTool('local', { n: 'three' });
        expect(refused.isError).to.equal(true);
        expect(target.hits()).to.equal(0);
      } finally {
        await target.close();
      }
    });

    it('[BASE-092] fetches no $ref by default (there is no fetching mode): every pointer at https://127.0.0.1:<port> in a tool schema is refused at registration, and nothing connects', async () => {
      const target = await countingPort();
      try {
        const { mcp } = makeServer();
        for (const [i, [how, schema]] of Object.entries(networkPointers(target.base)).entries()) {
          expect(() => mcp.registerTool(`in_${i}`, { inputSchema: schema as never }, () => 'x'), how).to.throw(TypeError, /input schema of tool .*(points outside the schema|not supported)/);
          expect(() => mcp.registerTool(`out_${i}`, { inputSchema: { type: 'object' }, outputSchema: schema as never }, () => 'x'), how).to.throw(TypeError, /output schema of tool .*(points outside the schema|not supported)/);
        }
        mcp.registerTool('local', { inputSchema: { type: 'object', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'integer' } } } as never }, (a) => String((a as { n?: unknown }).n));
        const { client } = await connect(mcp);
        expect((await client.listTools()).map((t) => t.name)).to.deep.equal(['local']);
        expect(await client.callTool('local', { n: 3 })).to.deep.include({ content: [{ type: 'text', text: '3' }] });
        expect(target.connections()).to.equal(0);
      } finally {
        await target.close();
      }
    });
  });

  describe('a client never trusts an output schema it cannot resolve', () => {
    it('[TOOL-077] [BASE-092] follows the $ref rules for listed outputSchemas: each pointer at https://127.0.0.1:<port> makes callTool reject with UnusableOutputSchemaError, and nothing connects', async () => {
      const target = await countingPort();
      try {
        const pointers = networkPointers(target.base);
        const tools: Tool[] = Object.entries(pointers).map(([how, schema], i) => ({ name: `t${i}`, description: how, inputSchema: { type: 'object' }, outputSchema: schema as Tool['outputSchema'] }));
        const { client } = await pair({
          serverCapabilities: { tools: {} },
          setup: (_c, server) => {
            server.onRequest('tools/list', () => ({ tools }));
            // A result that a skipped $ref would wave through.
            server.onRequest('tools/call', () => ({ content: [], structuredContent: { name: 42 } }));
          },
        });
        await client.listTools();
        for (const tool of tools) {
          const error = await rejection(client.callTool(tool.name, {}));
          expect(error, tool.description).to.be.instanceOf(UnusableOutputSchemaError);
          expect(error.message, tool.description).to.contain(`tool "${tool.name}"`).and.match(/points outside the schema|not supported/);
        }
        expect(target.connections()).to.equal(0);
      } finally {
        await target.close();
      }
    });

    it('[BASE-091] [BASE-093] a listed outputSchema with a network $ref: callTool rejects with UnusableOutputSchemaError, nothing fetched', async () => {
      const target = await countingServer();
      try {
        const tool: Tool = { name: 'who', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { name: { $ref: target.url } } } as Tool['outputSchema'] };
        const { client } = await pair({
          serverCapabilities: { tools: {} },
          setup: (_c, server) => {
            server.onRequest('tools/list', () => ({ tools: [tool] }));
            server.onRequest('tools/call', () => ({ content: [], structuredContent: { name: 42 } }));
          },
        });
        await client.listTools();
        const error = await rejection(client.callTool('who', {}));
        expect(error).to.be.instanceOf(UnusableOutputSchemaError);
        expect(error.message).to.contain('tool "who"').and.contain('points outside the schema');
        expect(error.result).to.deep.include({ structuredContent: { name: 42 } });
        expect(target.hits()).to.equal(0);
        // The client is still usable.
        expect((await client.listTools()).map((t) => t.name)).to.deep.equal(['who']);
      } finally {
        await target.close();
      }
    });

    it('[BASE-094] a hostile outputSchema (nested far too deep) is refused quickly, not walked by the validator', async () => {
      const tool: Tool = { name: 'deep', inputSchema: { type: 'object' }, outputSchema: nested(100) as Tool['outputSchema'] };
      const { client } = await pair({
        serverCapabilities: { tools: {} },
        setup: (_c, server) => {
          server.onRequest('tools/list', () => ({ tools: [tool] }));
          server.onRequest('tools/call', () => ({ content: [], structuredContent: {} }));
        },
      });
      await client.listTools();
      const error = await rejection(client.callTool('deep', {}));
      expect(error).to.be.instanceOf(UnusableOutputSchemaError);
      expect(error.message).to.contain('more than 64 deep');
    });
  });
});
