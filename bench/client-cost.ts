/**
 * The client's own cost per call, in either era: our `Client.callTool` against a scripted peer on
 * a memory pair that answers each frame at once (no MCP server), so the CPU and bytes measured are
 * the client's plus a few µs of the peer's. The memory rows of `run.ts` run our server in the same
 * process; this splits the client's part out of them. `BENCH_TRANSPORT=stdio` puts the peer in a
 * child process on a real pipe (`servers/canned-stdio.ts`, canned answers): the CPU printed is then
 * the client process's alone, frames encoded and parsed.
 *
 *   npm run build && node dist/bench/client-cost.js [sequential,pipelined] [runs=7]
 *
 * BENCH_CALLS (10000 per run), BENCH_WINDOW (256), BENCH_ERA (`legacy,modern`: both by default),
 * BENCH_TRANSPORT (`memory`, the default, or `stdio`).
 * Prints, per era and workload, the median and minimum CPU µs per call and the median B/call (the
 * eras' runs alternate).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/entries/client.js';
import type { JsonObject } from '../lib/jsonrpc/message.js';
import { createMemoryPair, type MemoryTransport } from '../streams/memory.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';
import { CLIENT_INFO, TEXT, TOOL, median, type WorkloadName } from './common.js';
import type { Driver } from './drivers.js';
import { measure } from './measure.js';

const workloads = (process.argv[2] ?? 'sequential,pipelined').split(',') as WorkloadName[];
const runs = Number(process.argv[3] ?? 7);
const calls = Number(process.env.BENCH_CALLS ?? 10_000);
const window = Number(process.env.BENCH_WINDOW ?? 256);
const eras = (process.env.BENCH_ERA ?? 'legacy,modern').split(',') as ('legacy' | 'modern')[];
const overStdio = process.env.BENCH_TRANSPORT === 'stdio';

const SERVER_INFO = { name: 'scripted', version: '1.0.0' };
const CAPABILITIES = { tools: {} };

/** Answers what a client sends in either era: discover or initialize, then echo tool calls. */
function scriptedPeer(end: MemoryTransport): void {
  end.inbound$.subscribe((raw) => {
    const frame = raw as { id?: string | number; method?: string; params?: JsonObject };
    if (frame.id === undefined || frame.method === undefined) return;
    let result: JsonObject;
    switch (frame.method) {
      case 'server/discover':
        result = { supportedVersions: ['2026-07-28'], capabilities: CAPABILITIES, serverInfo: SERVER_INFO, resultType: 'complete' };
        break;
      case 'initialize':
        result = { protocolVersion: '2025-11-25', capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
        break;
      case 'tools/call': {
        const text = (frame.params?.arguments as { text?: string } | undefined)?.text ?? '';
        result = { content: [{ type: 'text', text }] };
        if ((frame.params?._meta as JsonObject | undefined)?.['io.modelcontextprotocol/protocolVersion'] !== undefined) result.resultType = 'complete';
        break;
      }
      default:
        result = {};
    }
    end.send({ jsonrpc: '2.0', id: frame.id, result });
  });
}

/** The canned peer as a child: compiled next to this file, or its .ts source through tsx. */
function cannedPeer(): ReturnType<typeof createStdioClientTransport> {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(`./servers/canned-stdio.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  return createStdioClientTransport({ command: process.execPath, args: fromSource ? ['--import', 'tsx', path] : [path] });
}

async function driverFor(era: 'legacy' | 'modern'): Promise<Driver> {
  const client = new Client({ info: CLIENT_INFO, era });
  if (overStdio) await client.connect(cannedPeer());
  else {
    const [c, s] = createMemoryPair();
    scriptedPeer(s);
    await client.connect(c);
  }
  if (client.era !== era) throw new Error(`connected in the ${String(client.era)} era, not ${era}`);
  return {
    label: `client only, ${overStdio ? 'stdio' : 'memory'}, ${era}`,
    call: () =>
      client.callTool(TOOL, { text: TEXT }).then((r) => {
        const first = r.content[0];
        return first?.type === 'text' ? first.text : '';
      }),
    close: () => client.close(),
  };
}

// The eras' clients are open side by side and their runs alternate: on a shared machine a slow
// phase then falls on both, not on whichever era ran in it.
const drivers: Driver[] = [];
for (const era of eras) drivers.push(await driverFor(era));
for (const workload of workloads) {
  for (const driver of drivers) await measure(driver, workload, calls, window); // warm-up
  const cpu = drivers.map((): number[] => []);
  const bytes = drivers.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (const [d, driver] of drivers.entries()) {
      const r = await measure(driver, workload, calls, window);
      cpu[d]!.push(r.cpuUsPerCall);
      bytes[d]!.push(r.allocPerCall);
    }
  }
  for (const [d, driver] of drivers.entries()) {
    console.log(`${driver.label.padEnd(29)} ${workload.padEnd(10)} cpu µs/call median ${median(cpu[d]!).toFixed(2)} min ${Math.min(...cpu[d]!).toFixed(2)}  B/call ${Math.round(median(bytes[d]!))}`);
  }
}
for (const driver of drivers) await driver.close();
