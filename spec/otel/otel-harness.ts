/**
 * The OpenTelemetry SDK as a user sets it up, for the specs: spans to an in-memory exporter,
 * histograms to a reader collected on demand, W3C Trace Context and Baggage as the propagator, and
 * the AsyncLocalStorage context manager (what NodeTracerProvider.register() installs).
 */
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createMcpTelemetry, type McpTelemetry, type McpTelemetryOptions } from '../../lib/otel/index.js';

class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Install the async context manager once for the whole run (the API keeps one global). */
export function ensureContextManager(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  api.context.setGlobalContextManager(contextManager);
}

export interface Harness {
  readonly telemetry: McpTelemetry;
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly propagator: CompositePropagator;
  spans(): ReadableSpan[];
  span(name: string, kind?: api.SpanKind): ReadableSpan;
  /** The histograms as the reader collects them now. */
  collect(): Promise<HistogramMetricData[]>;
  shutdown(): Promise<void>;
}

/** `registeredPropagator: false`: no propagator given or registered (the API's default, which propagates nothing). */
export function harness(options: Omit<McpTelemetryOptions, 'tracerProvider' | 'meterProvider' | 'propagator'> & { registeredPropagator?: boolean } = {}): Harness {
  ensureContextManager();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });
  const { registeredPropagator = true, ...rest } = options;
  const telemetry = createMcpTelemetry(api, { ...rest, tracerProvider, meterProvider, ...(registeredPropagator ? { propagator } : {}) });
  return {
    telemetry,
    exporter,
    tracerProvider,
    propagator,
    spans: () => exporter.getFinishedSpans(),
    span(name, kind) {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name && (kind === undefined || s.kind === kind));
      if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}: ${exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
      return found[0]!;
    },
    async collect() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics) as HistogramMetricData[];
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

export { api };
