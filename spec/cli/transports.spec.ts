// The talk commands over WebSocket and the mock server over HTTP (`replay --as server --port`).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createWebSocketServer } from '../../lib/server-bindings/websocket-server.js';
import { CLI, runInProcess, TERMINAL_SERVER_CMD } from './helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

describe('mcp-actors over WebSocket and the HTTP mock server', function () {
  this.timeout(30000);

  it('--ws: lists and calls over a WebSocket', async () => {
    const mcp = createMcpServer({ info: { name: 'ws-fixture', version: '1.0.0' } });
    mcp.registerTool('shout', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args: any) => String(args.text).toUpperCase());
    const ws = await createWebSocketServer(mcp.server, { port: 0 });
    try {
      const list = await runInProcess(['list', 'tools', '--ws', ws.url]);
      expect(list.code).to.equal(0);
      expect(list.stdout).to.include('ws-fixture');
      expect(list.stdout).to.include('shout');
      const call = await runInProcess(['call', 'shout', 'text=hey', '--ws', ws.url]);
      expect(call.stdout.trim()).to.equal('HEY');
    } finally {
      await ws.close();
    }
  });

  it('replay --as server --port serves a recording over Streamable HTTP on 127.0.0.1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-mock-'));
    const file = join(dir, 's.jsonl');
    const q = (w: string[]) => w.map((x) => JSON.stringify(x)).join(' ');
    await runInProcess(['call', 'echo', 'a=1', '--stdio', q([process.execPath, ...tsArgs(CLI), 'record', '--out', file, '--', ...TERMINAL_SERVER_CMD])]);
    const mock = spawn(process.execPath, [...tsArgs(CLI), 'replay', file, '--as', 'server', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        mock.stderr.on('data', (d) => {
          err += d;
          const m = /mock server at (\S+)/.exec(err);
          if (m) resolve(m[1]!);
        });
        mock.once('exit', () => reject(new Error(err)));
      });
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+\//);
      const call = await runInProcess(['call', 'echo', 'a=1', '--url', url]);
      expect(call.code).to.equal(0);
      expect(call.stdout.trim()).to.equal('got a');
      const miss = await runInProcess(['call', 'echo', 'b=2', '--url', url]);
      expect(miss.code).to.equal(4);
      expect(miss.stderr).to.include('params.arguments.a: recorded 1, sent "<missing>"');
    } finally {
      mock.kill('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
