/**
 * What OpenTelemetry (`mcp-actors/otel`) costs per call: an in-memory round trip (our Client →
 * McpServer, `tools/call` echo, sequential) without telemetry, with a stage per side that only
 * calls next (`pass-through`: what any interceptor costs), with the interceptors over the API
 * alone (no SDK registered: no-op spans), and with the SDK recording every span (a span processor
 * whose exporter drops them) and both duration histograms, with the async context manager (`sdk`,
 * what NodeTracerProvider.register() installs) and without it (`sdk-no-context`).
 * Each mode runs in a fresh process (the SDK's async hooks would otherwise stay on for the other
 * modes); the modes take turns, round after round, the order reversed every round, so drift falls
 * on all alike; the figure is the median over rounds of the CPU time (user + system) per call.
 *
 *   npx tsx bench/otel-overhead.ts          (OTEL_ROUNDS=6, OTEL_CALLS=4000, OTEL_WARM=1000; any node: node --import tsx bench/otel-overhead.ts)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MODES = ['off', 'pass-through', 'api-only', 'sdk', 'sdk-no-context'] as const;
type Mode = (typeof MODES)[number];
const ROUNDS = Number(process.env.OTEL_ROUNDS ?? 6);
const CALLS = Number(process.env.OTEL_CALLS ?? 4000);
const WARM = Number(process.env.OTEL_WARM ?? 1000);

async function child(mode: Mode): Promise<void> {
  const { Client } = await import('../lib/client.js');
  const { createMcpServer } = await import('../lib/mcp-server.js');
  const { createMemoryPair } = await import('../streams/memory.js');
  const mcp = createMcpServer({ info: { name: 'bench', version: '1' } });
  mcp.registerTool('echo', { description: 'echo' }, async (args: Record<string, unknown>) => String(args.text));
  const client = new Client({ info: { name: 'bench', version: '1' } });
  if (mode === 'pass-through') {
    // What any interceptor costs (one stage per side that only calls next): the floor of telemetry as interceptors.
    mcp.use((_req, next) => next());
    client.use((_req, next) => next());
  } else if (mode !== 'off') {
    const api = await import('@opentelemetry/api');
    const { createMcpTelemetry } = await import('../lib/otel/index.js');
    let options = {};
    if (mode === 'sdk' || mode === 'sdk-no-context') {
      const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
      const { BasicTracerProvider, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
      const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
      // Without a context manager spans still join across the wire (_meta), but a handler's own spans are not children.
      if (mode === 'sdk') api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      const drop = { export: (_s: unknown, done: (r: { code: 0 }) => void) => done({ code: 0 }), shutdown: async () => {} };
      class Reader extends MetricReader {
        protected override async onForceFlush(): Promise<void> {}
        protected override async onShutdown(): Promise<void> {}
      }
      options = { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(drop)] }), meterProvider: new MeterProvider({ readers: [new Reader()] }) };
    }
    const telemetry = createMcpTelemetry(api, options);
    mcp.use(telemetry.server);
    client.use(telemetry.clientOf(client));
  }
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  await client.connect(b);
  for (let i = 0; i < WARM; i++) await client.callTool('echo', { text: 'x' });
  // CPU time, not wall time: on a shared machine the wait for a core is not what the calls cost.
  const c0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await client.callTool('echo', { text: 'x' });
  const c = process.cpuUsage(c0);
  const us = (c.user + c.system) / CALLS;
  process.stdout.write(JSON.stringify({ mode, us }));
  await client.close();
  await mcp.close();
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Mode);
} else {
  const self = fileURLToPath(import.meta.url);
  const results: Record<Mode, number[]> = { off: [], 'pass-through': [], 'api-only': [], sdk: [], 'sdk-no-context': [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? MODES : [...MODES].reverse();
    for (const mode of order) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--child', mode], { encoding: 'utf8' });
      results[mode].push((JSON.parse(out) as { us: number }).us);
    }
  }
  const base = median(results.off);
  console.log(`otel overhead: in-memory tools/call round trip, ${ROUNDS} rounds x ${CALLS} calls, median CPU µs per call`);
  for (const mode of MODES) {
    const m = median(results[mode]);
    console.log(`${mode.padEnd(10)} ${m.toFixed(1).padStart(8)} µs  ${mode === 'off' ? '' : `+${(m - base).toFixed(1)} µs (${(((m - base) / base) * 100).toFixed(1)}%)`}  runs: ${results[mode].map((x) => x.toFixed(1)).join(' ')}`);
  }
}
