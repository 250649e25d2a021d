import { expect } from 'chai';
import { canonicalResourceUri, resourceCovers, serverResourceUri } from '../../lib/auth/canonical-resource.js';

describe('canonical resource URI (RFC 8707)', () => {
  it('[AUTH-019] [AUTH-020] keeps the path (most specific URI), lower-cases scheme and host, never keeps a fragment', () => {
    expect(canonicalResourceUri('HTTPS://MCP.Example.COM/Server/mcp')).to.equal('https://mcp.example.com/Server/mcp');
    expect(() => canonicalResourceUri('https://mcp.example.com/mcp#frag')).to.throw(TypeError, /fragment/);
    expect(serverResourceUri('HTTPS://MCP.Example.COM/Server/mcp#frag')).to.equal('https://mcp.example.com/Server/mcp');
    expect(canonicalResourceUri('https://mcp.example.com:8443/mcp')).to.equal('https://mcp.example.com:8443/mcp');
  });

  it('[AUTH-022] uses the form without a trailing slash for a bare origin', () => {
    expect(canonicalResourceUri('https://mcp.example.com/')).to.equal('https://mcp.example.com');
    expect(canonicalResourceUri('https://mcp.example.com')).to.equal('https://mcp.example.com');
    expect(canonicalResourceUri('https://mcp.example.com/mcp/')).to.equal('https://mcp.example.com/mcp');
  });

  it('a PRM resource covers the server when it is the same URI or a parent path on the same origin', () => {
    expect(resourceCovers('http://localhost:3000/mcp', 'http://localhost:3000/mcp')).to.equal(true);
    expect(resourceCovers('http://localhost:3000', 'http://localhost:3000/mcp')).to.equal(true);
    expect(resourceCovers('HTTP://LOCALHOST:3000/mcp', 'http://localhost:3000/mcp')).to.equal(true);
    expect(resourceCovers('http://localhost:3000/m', 'http://localhost:3000/mcp')).to.equal(false);
    expect(resourceCovers('http://localhost:3000/mcp/sub', 'http://localhost:3000/mcp')).to.equal(false);
    expect(resourceCovers('https://evil.example.com/mcp', 'http://localhost:3000/mcp')).to.equal(false);
    expect(resourceCovers('http://localhost:3001/mcp', 'http://localhost:3000/mcp')).to.equal(false);
    expect(resourceCovers('not a url', 'http://localhost:3000/mcp')).to.equal(false);
  });
});
