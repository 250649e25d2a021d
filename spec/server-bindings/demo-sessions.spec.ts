// The demo server (examples/everything-server.ts) through every adapter, each driven by every
// client: ours and the SDK v2 client in both eras, the SDK 1.32.2 client in the 2025 era. A session
// lists tools, gets progress notifications, answers an elicitation, reads a resource, gets a
// prompt. Bun and Deno run the demo itself (examples/everything.ts: the fetch handler on Bun.serve
// and Deno.serve; with --node-http the node handler through their node:http compatibility), and so
// does Node with --fetch. On Bun and Deno our client runs there too, against the demo on the same runtime.
import { expect } from 'chai';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEverythingServer, type EverythingDemo } from '../../examples/everything-server.js';
import { IN_PROCESS, bundle, mountInProcess, mountRuntime, removeBundles, runOn, type Mounted } from './adapters.js';
import { DEMO_CLIENTS, demoSession } from './demo-session.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describe('the demo through every adapter, with every client [HTTP-011] [HTTP-013]', function () {
  this.timeout(60_000);
  after(() => removeBundles());

  for (const name of IN_PROCESS) {
    describe(name, () => {
      let demo: EverythingDemo;
      let mounted: Mounted;
      before(async () => {
        demo = createEverythingServer();
        mounted = await mountInProcess(name, demo.mcp, {});
      });
      after(async () => {
        await mounted?.close();
        demo?.stop();
      });
      for (const client of DEMO_CLIENTS) {
        it(`${client}: tools, progress, an elicitation, a resource, a prompt`, () => demoSession(client, mounted.url));
      }
    });
  }

  // The demo as a user runs it: bundled from the sources here; MCP_RUNTIME_DEMO=dist runs the
  // built dist/examples/everything.js instead (its imports resolved by each runtime from node_modules).
  const demoScript = () => (process.env.MCP_RUNTIME_DEMO === 'dist' ? Promise.resolve(join(REPO, 'dist', 'examples', 'everything.js')) : bundle('examples/everything.ts'));
  const runtimes: Array<['Node' | 'Bun' | 'Deno', string[], string]> = [
    ['Node', ['--fetch'], 'the fetch handler on serveFetch’s node:http bridge'],
    ['Bun', [], 'the fetch handler on Bun.serve'],
    ['Deno', [], 'the fetch handler on Deno.serve'],
    ['Bun', ['--node-http'], 'the node handler on Bun’s node:http'],
    ['Deno', ['--node-http'], 'the node handler on Deno’s node:http'],
  ];
  for (const [runtime, args, what] of runtimes) {
    describe(`${runtime}: examples/everything.ts${args.map((a) => ` ${a}`).join('')} (${what})`, () => {
      let mounted: Mounted;
      before(async function () {
        this.timeout(120_000);
        mounted = await mountRuntime(runtime, await demoScript(), args);
      });
      after(async () => {
        await mounted?.close();
      });
      afterEach(function () {
        if (this.currentTest?.state === 'failed') console.error(`${runtime} output:\n${mounted?.output().slice(-4000)}`);
      });
      for (const client of DEMO_CLIENTS) {
        it(`${client}: tools, progress, an elicitation, a resource, a prompt`, () => demoSession(client, mounted.url));
      }
      // A deployment on one runtime: our client runs there too (undici, streams and timers as that
      // runtime provides them), in both eras.
      if (runtime !== 'Node' && args.length === 0) {
        for (const client of ['ours', 'ours 2026-07-28'] as const) {
          it(`${client}, itself running on ${runtime}: the same session`, async function () {
            this.timeout(120_000);
            const out = await runOn(runtime, await bundle('spec/fixtures/fetch/client-session.ts'), [mounted.url, client]);
            expect(out.trim().split('\n').at(-1)).to.equal(`ok ${client}`);
          });
        }
      }
    });
  }
});
