// One session of OUR Client against server-everything, over stdio or Streamable HTTP, with every
// client feature the server uses declared before connecting (roots, sampling, form + URL
// elicitation) and recorders for what the server asked of us.
import process from 'node:process';
import { Client, type ClientWarning, type Diagnostic, type FormElicitationRequest, type UrlElicitationRequest } from '../../../lib/entries/client.js';
import type { JsonObject } from '../../../lib/jsonrpc/message.js';
import { McpError } from '../../../lib/errors.js';
import { RELATED_TASK_META_KEY, type CallToolResult, type CreateMessageRequestParams, type LoggingMessageNotificationParams, type Task } from '../../../lib/protocol/schema/index.js';
import { createStdioClientTransport, type StdioClientTransport } from '../../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import type { Transport } from '../../../streams/transport.js';
import { everythingEntry, isAlive, startHttpEverything, type HttpEverything } from '../../fixtures/interop-everything/everything.js';

export type TransportKind = 'stdio' | 'streamable-http';
export const TRANSPORTS: readonly TransportKind[] = ['stdio', 'streamable-http'];

/** An env var passed to the server, which `get-env` must show. */
export const ENV_MARKER = 'MCP_ACTORS_INTEROP_MARKER';

export const ROOT = { uri: 'file:///tmp/mcp-actors-interop', name: 'interop-root' };
export const SAMPLING_MODEL = 'interop-test-model';

/** A form answer valid against trigger-elicitation-request's schema (firstLine left to its default). */
export const FORM_ANSWER = {
  name: 'Ada Lovelace',
  check: true,
  email: 'ada@example.com',
  homepage: 'https://example.com/ada',
  birthdate: '1815-12-10',
  integer: 7,
  number: 2.5,
  untitledSingleSelectEnum: 'Joey',
  untitledMultipleSelectEnum: ['Piano', 'Drums'],
  titledSingleSelectEnum: 'hero-3',
  titledMultipleSelectEnum: ['fish-2'],
  legacyTitledEnum: 'pet-2',
};

export interface Everything {
  kind: TransportKind;
  client: Client;
  transport: Transport;
  /** Tool names called through {@link Everything.call}. */
  called: Set<string>;
  samplingRequests: CreateMessageRequestParams[];
  formRequests: FormElicitationRequest[];
  urlRequests: UrlElicitationRequest[];
  logs: LoggingMessageNotificationParams[];
  /** `notifications/tasks/status` the server sent (its tasks' status changes). */
  taskStatuses: Task[];
  /** What the session noted (late or unknown responses, handler errors, ignored frames...). */
  diagnostics: Diagnostic[];
  /** What the client handled without failing (failed re-lists, unknown elicitations...). */
  warnings: ClientWarning[];
  /** Resolves with the first log (seen or to come) that matches. */
  waitForLog(test: (l: LoggingMessageNotificationParams) => boolean, ms: number): Promise<LoggingMessageNotificationParams>;
  call(name: string, args?: Record<string, unknown>, options?: Parameters<Client['callTool']>[2]): Promise<CallToolResult>;
  /** What the HTTP server process printed so far (empty over stdio). */
  serverOutput(): string;
  /** The server process id (stdio: the transport's child; HTTP: the spawned server). */
  pid(): number | undefined;
  close(): Promise<void>;
}

/** Answer the form: FORM_ANSWER for the big form, the first `oneOf` choice for required single choices. */
function answerForm(request: FormElicitationRequest): { action: 'accept'; content: Record<string, unknown> } {
  const props = request.requestedSchema.properties as Record<string, JsonObject>;
  if ('untitledSingleSelectEnum' in props) return { action: 'accept', content: { ...FORM_ANSWER } };
  const content: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(props)) {
    if (Array.isArray(prop.oneOf)) content[key] = (prop.oneOf[1] as { const: string }).const;
    else if (Array.isArray(prop.enum)) content[key] = prop.enum[0];
    else if (prop.type === 'boolean') content[key] = true;
    else if (prop.type === 'string') content[key] = 'Ada';
  }
  return { action: 'accept', content };
}

/** A tiny receiver-side task store: what a client needs to run server requests as tasks. */
export class ClientTaskExecutor {
  readonly tasks = new Map<string, { task: Task; result?: JsonObject }>();
  /** The methods that arrived task-augmented. */
  readonly augmented: string[] = [];
  private next = 1;

  /** Run `work` as a task when the request carries `task`, else answer at once. */
  serve(method: string, params: JsonObject | undefined, work: () => JsonObject): JsonObject {
    const meta = params?.task as { ttl?: number } | undefined;
    if (meta === undefined) return work();
    this.augmented.push(method);
    const now = new Date().toISOString();
    const task: Task = { taskId: `client-task-${this.next++}`, status: 'working', createdAt: now, lastUpdatedAt: now, ttl: meta.ttl ?? null, pollInterval: 100 };
    const entry: { task: Task; result?: JsonObject } = { task };
    this.tasks.set(task.taskId, entry);
    setTimeout(() => {
      entry.result = { ...work(), _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } } };
      entry.task = { ...entry.task, status: 'completed', lastUpdatedAt: new Date().toISOString() };
    }, 20);
    return { task: { ...task } };
  }

  install(client: Client): void {
    const find = (params: JsonObject | undefined) => {
      const entry = this.tasks.get(String(params?.taskId));
      if (!entry) throw new McpError(-32602, `Unknown task ${JSON.stringify(params?.taskId)}`);
      return entry;
    };
    client.onRequest('tasks/get', (params) => ({ ...find(params).task }));
    client.onRequest('tasks/result', (params) => {
      const entry = find(params);
      if (!entry.result) throw new McpError(-32603, 'The task is not finished');
      return entry.result;
    });
    client.onRequest('tasks/list', () => ({ tasks: [...this.tasks.values()].map((e) => ({ ...e.task })) }));
  }
}

export interface OpenOptions {
  /**
   * Declare client-side tasks (`tasks.requests.sampling.createMessage`,
   * `tasks.requests.elicitation.create`) and answer sampling / elicitation / tasks/* with plain
   * `onRequest` handlers backed by a {@link ClientTaskExecutor}: our Client has no task support
   * of its own, so the feature APIs (onSampling, onElicitation) are not used then.
   */
  clientTasks?: ClientTaskExecutor;
}

export async function openEverything(kind: TransportKind, options: OpenOptions = {}): Promise<Everything> {
  const samplingRequests: CreateMessageRequestParams[] = [];
  const formRequests: FormElicitationRequest[] = [];
  const urlRequests: UrlElicitationRequest[] = [];
  const logs: LoggingMessageNotificationParams[] = [];
  const logWaiters: { test: (l: LoggingMessageNotificationParams) => boolean; resolve: (l: LoggingMessageNotificationParams) => void }[] = [];
  const called = new Set<string>();

  const sampled = (params: CreateMessageRequestParams) => {
    samplingRequests.push(params);
    return { role: 'assistant' as const, content: { type: 'text' as const, text: `sampled reply #${samplingRequests.length}` }, model: SAMPLING_MODEL, stopReason: 'endTurn' };
  };
  const executor = options.clientTasks;
  const client = new Client({
    info: { name: 'mcp-actors-interop', version: '0.0.1' },
    ...(executor && {
      capabilities: {
        sampling: {},
        elicitation: { form: {} },
        tasks: { list: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
      },
    }),
  });
  if (executor) {
    executor.install(client);
    client.onRequest('sampling/createMessage', (params) =>
      executor.serve('sampling/createMessage', params, () => sampled(params as unknown as CreateMessageRequestParams) as unknown as JsonObject),
    );
    client.onRequest('elicitation/create', (params) =>
      executor.serve('elicitation/create', params, () => {
        const request = { mode: 'form', message: params?.message, requestedSchema: params?.requestedSchema, defaults: {}, server: client.serverInfo } as FormElicitationRequest;
        formRequests.push(request);
        return answerForm(request) as unknown as JsonObject;
      }),
    );
  } else {
    client.setRoots([ROOT]);
    client.onSampling((params) => sampled(params));
    client.onElicitation({
      applyDefaults: true,
      form: (request) => {
        formRequests.push(request);
        return answerForm(request);
      },
      // Consent, and since the server never sends notifications/elicitation/complete, stop waiting
      // for it as soon as the URL counts as opened (the user's "I'm done" button).
      url: (request, control) => {
        urlRequests.push(request);
        const sub = control.status$.subscribe((s) => {
          if (s.state === 'awaiting' || s.state === 'stale') queueMicrotask(() => control.retry());
        });
        control.signal.addEventListener('abort', () => sub.unsubscribe(), { once: true });
        return 'accept';
      },
      openUrl: () => undefined,
    });
  }
  const diagnostics: Diagnostic[] = [];
  const warnings: ClientWarning[] = [];
  const taskStatuses: Task[] = [];
  client.onNotification('notifications/tasks/status', (params) => void taskStatuses.push(params as unknown as Task));
  client.diagnostics$.subscribe((d) => diagnostics.push(d));
  client.warnings$.subscribe((w) => warnings.push(w));
  client.logs$.subscribe((log) => {
    logs.push(log);
    for (const w of logWaiters.splice(0)) {
      if (w.test(log)) w.resolve(log);
      else logWaiters.push(w);
    }
  });

  let http: HttpEverything | undefined;
  let stdio: StdioClientTransport | undefined;
  let transport: Transport;
  if (kind === 'stdio') {
    stdio = createStdioClientTransport({
      command: process.execPath,
      args: [everythingEntry(), 'stdio'],
      env: { [ENV_MARKER]: kind },
      stderr: 'pipe',
    });
    transport = stdio;
  } else {
    http = await startHttpEverything({ [ENV_MARKER]: kind });
    transport = createStreamableHttpClientTransport(http.url);
  }
  try {
    await client.connect(transport);
  } catch (e) {
    await client.close().catch(() => undefined);
    if (http) await http.stop();
    throw new Error(`connect over ${kind} failed: ${(e as Error).message}${stdio ? `\n${stdio.stderrTail.join('\n')}` : ''}`, { cause: e });
  }

  const pid = () => (stdio ? stdio.pid : http?.child.pid);
  return {
    kind,
    client,
    transport,
    called,
    samplingRequests,
    formRequests,
    urlRequests,
    logs,
    taskStatuses,
    diagnostics,
    warnings,
    waitForLog: (test, ms) => {
      const seen = logs.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching log message within ${ms} ms; got ${JSON.stringify(logs)}`)), ms);
        logWaiters.push({
          test,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
    call: (name, args, options) => {
      called.add(name);
      return client.callTool(name, args, options);
    },
    pid,
    serverOutput: () => (http ? http.output.join('') : ''),
    close: async () => {
      const id = pid();
      await client.close().catch(() => undefined);
      if (http) await http.stop();
      if (id !== undefined && isAlive(id)) {
        // Closing did not end the child: make sure nothing is left behind.
        try {
          process.kill(id, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
    },
  };
}

