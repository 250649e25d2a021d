import { expect } from 'chai';
import { checkMetaKey, isReservedMetaKey } from '../../lib/protocol/meta-key.js';

describe('protocol/meta-key', () => {
  it('[BASE-014] [BASE-015] accepts dot-separated labels ending in a slash as the prefix, and refuses bad labels', () => {
    for (const ok of ['io.modelcontextprotocol/related-task', 'example.com/x', 'a/b', 'a-1.b2/name', 'progressToken']) {
      expect(checkMetaKey(ok), ok).to.equal(undefined);
    }
    for (const bad of ['1abc/x', '-a/x', 'a-/x', 'a..b/x', '/x', 'a_b/x', 'a.b./x']) {
      expect(checkMetaKey(bad), bad).to.match(/prefix label/);
    }
  });

  it('[BASE-016] a name begins and ends with an alphanumeric unless empty', () => {
    for (const ok of ['a', 'a.b_c-d', 'x/', 'x/A9', 'x/a.b']) expect(checkMetaKey(ok), ok).to.equal(undefined);
    for (const bad of ['-a', 'a-', 'x/_a', 'x/a.', 'x/a b', 'x/é']) expect(checkMetaKey(bad), bad).to.match(/name must/);
  });

  it('knows the prefixes reserved for MCP (the examples of the text)', () => {
    for (const key of ['modelcontextprotocol.io/x', 'mcp.dev/x', 'api.modelcontextprotocol.org/x', 'tools.mcp.com/x']) {
      expect(isReservedMetaKey(key), key).to.equal(true);
    }
    for (const key of ['example.com/x', 'dev.mcp/x', 'mcp/x', 'progressToken']) {
      expect(isReservedMetaKey(key), key).to.equal(false);
    }
  });
});
