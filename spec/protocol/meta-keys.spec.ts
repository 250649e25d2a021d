// BASE-098: _meta key prefixes SHOULD be reverse DNS (`com.example/`, not `example.com/`). Every
// prefixed _meta key our client and server write in a session of either era (a call, a task, its
// status, list results, the 2026-07-28 envelope) is reverse DNS under a reserved MCP prefix; this
// library invents no prefix of its own.
import { expect } from 'chai';
import { createMcpServer } from '../../lib/mcp-server.js';
import { connect } from '../server-features/interceptors/harness.js';

/** Every key of every `_meta` object anywhere in `value`. */
function metaKeys(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) metaKeys(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '_meta' && v !== null && typeof v === 'object') for (const key of Object.keys(v)) into.add(key);
      metaKeys(v, into);
    }
  }
  return into;
}

/** A prefix (`a.b.c/`) written in reverse DNS: its first label is a top-level domain, its labels as the text defines them. */
const REVERSE_DNS = /^(?:io|com|org|net|dev|ai|app)(?:\.[a-z](?:[a-z0-9-]*[a-z0-9])?)+\/[^/]+$/;

describe('protocol: the _meta keys we write', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`[BASE-098] ${era}: every prefixed _meta key in the session's frames, both ways, is reverse DNS`, async () => {
      const mcp = createMcpServer({ info: { name: 'meta', version: '1' } });
      mcp.registerTool('echo', {}, () => 'echo');
      mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        await ctx.progress?.(1, 2);
        return 'done';
      });
      const c = await connect(mcp, era, 'stdio');
      const frames: unknown[] = [];
      const sub = c.client.frames$.subscribe((f) => frames.push(f.frame));
      try {
        await c.client.listTools();
        await c.client.callTool({ name: 'echo', arguments: {} }, { onprogress: () => undefined });
        if (era === 'legacy') await (await c.client.callToolAsTask('job', {})).result();
        else await c.client.callTool({ name: 'job', arguments: {} });
      } finally {
        sub.unsubscribe();
        await c.close();
      }
      const prefixed = [...metaKeys(frames, new Set())].filter((k) => k.includes('/'));
      expect(prefixed.length, 'the session wrote prefixed keys').to.be.greaterThan(0);
      for (const key of prefixed) expect(key, key).to.match(REVERSE_DNS);
    });
  }
});
