/**
 * The parts of `@opentelemetry/api` this folder uses, as a type only: the module itself is handed in
 * by the caller or loaded on request, never imported here.
 */
export type OtelApi = Pick<
  typeof import('@opentelemetry/api'),
  'trace' | 'context' | 'propagation' | 'metrics' | 'SpanKind' | 'SpanStatusCode' | 'TraceFlags' | 'createTraceState'
>;
