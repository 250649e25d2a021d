import { expect } from 'chai';
import { createHost } from '../../lib/entries/host.js';
import { resolveServerConfig, serverEntries } from '../../lib/host/config.js';

describe('host configuration', () => {
  it('reads { name: config } and Claude Desktop\'s { mcpServers: { ... } }', () => {
    const servers = { fs: { command: 'npx', args: ['-y', 'x'] }, web: { url: 'http://127.0.0.1:1/mcp' } };
    expect(serverEntries(servers).map(([n]) => n)).to.deep.equal(['fs', 'web']);
    expect(serverEntries({ mcpServers: servers }).map(([n]) => n)).to.deep.equal(['fs', 'web']);
    // A server that happens to be called "mcpServers" next to others is a server.
    expect(serverEntries({ mcpServers: { command: 'x' }, b: { command: 'y' } }).map(([n]) => n)).to.deep.equal(['mcpServers', 'b']);
  });

  it('infers stdio from command and http from url; type hints decide when both are given', () => {
    expect(resolveServerConfig('a', { command: 'node', env: { A: '1' }, cwd: '/tmp' }, '__')).to.deep.equal({
      kind: 'stdio',
      command: 'node',
      args: [],
      env: { A: '1' },
      cwd: '/tmp',
    });
    expect(resolveServerConfig('b', { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' } }, '__')).to.include({ kind: 'http' });
    expect(resolveServerConfig('c', { type: 'http', url: 'http://h/mcp' }, '__').kind).to.equal('http');
    expect(resolveServerConfig('d', { type: 'sse', url: 'http://h/sse' }, '__').kind).to.equal('http');
    expect(resolveServerConfig('e', { type: 'stdio', command: 'x', url: 'http://h' }, '__').kind).to.equal('stdio');
  });

  it('rejects what cannot work, naming the server', () => {
    const bad: [string, unknown, RegExp][] = [
      ['a', { command: 'x', url: 'http://h' }, /"a".*both.*type/],
      ['b', {}, /"b".*needs a "command".*or a "url"/],
      ['c', { command: 'x', args: 'nope' }, /"c".*args/],
      ['d', { url: 'file:///etc/passwd' }, /"d".*http\(s\) URL/],
      ['e', { type: 'websocket', url: 'ws://h' }, /"e".*unknown type/],
      ['f__g', { command: 'x' }, /separator "__"/],
      ['h', { command: 'x', env: { A: 1 } }, /"h".*env/],
      ['', { command: 'x' }, /empty/],
    ];
    for (const [name, config, message] of bad) expect(() => resolveServerConfig(name, config, '__'), name).to.throw(TypeError, message);
  });

  it('createHost checks the whole configuration up front', () => {
    expect(() => createHost({ servers: { ok: { command: 'x' }, 'a.b': { command: 'y' } }, namespaceSeparator: '.' })).to.throw(/"a.b"/);
    expect(() => createHost({} as never)).to.throw(/servers/);
    expect(() => createHost({ servers: {}, restart: { jitter: 2 } })).to.throw(/jitter/);
    const host = createHost({ mcpServers: { a: { command: 'x' }, b: { url: 'http://127.0.0.1:9/mcp' } } });
    expect(host.serverNames).to.deep.equal(['a', 'b']);
    expect(host.state).to.deep.equal({ a: { phase: 'idle', transport: 'stdio', attempts: 0 }, b: { phase: 'idle', transport: 'http', attempts: 0 } });
    expect(host.parseName('a__echo')).to.deep.equal({ server: 'a', name: 'echo' });
    expect(host.parseName('a__x__y')).to.deep.equal({ server: 'a', name: 'x__y' });
    expect(host.parseName('c__echo')).to.equal(undefined);
    expect(host.parseName('a__')).to.equal(undefined);
    return host.close();
  });
});
