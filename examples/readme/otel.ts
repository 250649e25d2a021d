// OpenTelemetry per the MCP semantic conventions: a CLIENT span per request sent, a SERVER span per
// request served, one trace across both (the context travels in params._meta), and the
// mcp.{client,server}.operation.duration histograms. @opentelemetry/api is an optional peer,
// loaded only by mcpTelemetry().
import { createClient, createMcpServer } from 'mcp-actors';
import { mcpTelemetry } from 'mcp-actors/otel';
import { createMemoryPair } from 'mcp-actors/streams';
import { ConsoleSpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';

const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
provider.register(); // the global tracer provider, W3C propagators and the async context
const telemetry = await mcpTelemetry(); // options: tracerProvider, meterProvider, propagator, network...

const mcp = createMcpServer({ info: { name: 'weather', version: '1.0.0' } });
mcp.registerTool('get-weather', { description: 'The weather in a city.' }, async (args) => `sunny in ${String(args['city'])}`);
mcp.use(telemetry.server); // continues the trace a request's _meta carries (from any client)

const client = createClient({ info: { name: 'agent', version: '1.0.0' } });
client.use(telemetry.clientOf(client)); // writes traceparent, tracestate and baggage into _meta
const [clientSide, serverSide] = createMemoryPair();
await mcp.connect(serverSide);
await client.connect(clientSide);
await client.callTool('get-weather', { city: 'Oslo' }); // "tools/call get-weather": CLIENT and SERVER spans
await client.close();
await mcp.close();
await provider.shutdown();
