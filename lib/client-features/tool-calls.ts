/**
 * `callTool` on the client: the user's approval first (when an approver is set), the call (a
 * task followed to its end transparently, -32042 URL elicitations run and the call made again),
 * the result checked against the tool's `outputSchema`, and an audit record per call while
 * `toolCalls$` is observed.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools
 */
import type { Subject } from 'rxjs';
import type { PeerInfo } from '../../machines/session.machine.js';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { allows, type Revision } from '../protocol/revisions.js';
import type { CallToolResult, Tool } from '../protocol/schema/index.js';
import type { TraceOptions } from '../client-modern/modern-era.js';
import type { RequestOptions } from '../session/session.js';
import type { ElicitationService, UrlElicitationHandler } from './elicitation.js';
import { asUrlElicitationRequired } from './client-feature-errors.js';
import type { OutputValidators } from './output-schema.js';
import { ToolCallDeniedError, readDecision, type ToolCallApprover } from './tool-approval.js';
import { auditError, type ToolCallOutcome, type ToolCallRecord } from './tool-audit.js';
import type { ToolTaskHandle, ToolTasks } from './tool-tasks.js';

/** Options of `Client.callTool`. */
export interface CallToolOptions extends RequestOptions, TraceOptions {
  /**
   * Run the URL elicitations of a -32042 answer with this consent handler, then call the tool
   * again. Without it a -32042 rejects with `UrlElicitationRequiredError`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
   */
  onUrlElicitationRequired?: UrlElicitationHandler;
  /** Check `structuredContent` against the listed `outputSchema` (default true). */
  validateOutput?: boolean;
  /** How many -32042 rounds to go through before giving up (default 3). */
  maxElicitationRounds?: number;
  /**
   * Run the call as a task (2025-11-25): `true` or `{ ttl }` asks for one, `false` never does.
   * Default: only when the tool says `execution.taskSupport: "required"` (from `listTools`) and
   * the server declared task-augmented tool calls. Either way `callTool` polls the task and
   * returns its final result; use `Client.callToolAsTask` for a handle instead.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#tool-level-negotiation
   */
  task?: boolean | { ttl?: number };
}

/** What tool calls need from their client. */
export interface ToolCallDeps {
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  clock: Clock;
  serverInfo(): PeerInfo | undefined;
  revision(): Revision | undefined;
  tool(name: string): Tool | undefined;
  tasks: ToolTasks;
  elicitation: ElicitationService;
  outputValidators: OutputValidators;
  approver: ToolCallApprover | undefined;
  trustedServer: boolean;
  redactArguments: ((args: unknown) => unknown) | undefined;
  records: Subject<ToolCallRecord>;
  /** An outputSchema in a dialect the client cannot check. */
  unknownDialect(tool: string, schema: unknown): void;
  /** List the tools again, bypassing the cache (their x-mcp-header annotations may have changed). */
  relistTools?(): Promise<unknown>;
}

export class ToolCalls {
  constructor(private readonly deps: ToolCallDeps) {}

  call(name: string, args: Record<string, unknown> | undefined, options: CallToolOptions): Promise<CallToolResult> {
    const audited = this.deps.records.observed;
    // Not async itself: without approval or audit, the call costs no extra promise.
    if (this.deps.approver === undefined && !audited) return this.send(name, args, options);
    return this.callWithApproval(name, args, options, audited);
  }

  private async callWithApproval(name: string, args: Record<string, unknown> | undefined, options: CallToolOptions, audited: boolean): Promise<CallToolResult> {
    const startedAt = this.deps.clock.now();
    try {
      if (this.deps.approver !== undefined) await this.approve(this.deps.approver, name, args);
      const result = await this.send(name, args, options);
      if (audited) this.audit(name, args, startedAt, result.isError === true ? 'tool-error' : 'success');
      return result;
    } catch (e) {
      if (audited) this.audit(name, args, startedAt, e instanceof ToolCallDeniedError ? 'denied' : 'failed', e);
      throw e;
    }
  }

  /**
   * The call's first round without an async step of its own (nearly every call is answered with
   * its result at once); a failed round, or a task's result, goes on in {@link rounds}.
   */
  private send(name: string, args: Record<string, unknown> | undefined, options: CallToolOptions): Promise<CallToolResult> {
    const { onUrlElicitationRequired, validateOutput = true, maxElicitationRounds = 3, task, ...requestOptions } = options;
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    const call: PendingCall = { name, params, requestOptions, validateOutput, onUrlElicitationRequired, maxElicitationRounds, tracked: this.deps.tasks.prepare(name, task, params, requestOptions.onprogress) };
    return this.deps.request('tools/call', params, requestOptions).then(
      (result) => {
        let taskHandle: ReturnType<ToolTasks['created']>;
        try {
          // A task instead of the result: followed to the end, transparently.
          taskHandle = this.deps.tasks.created(name, result, requestOptions.signal, call.tracked);
        } catch (e) {
          return this.rounds(call, e);
        }
        if (taskHandle) return this.rounds(call, undefined, taskHandle);
        return this.checked(call, result);
      },
      (e: unknown) => this.rounds(call, e),
    );
  }

  /** The result, its structured content checked against the tool's `outputSchema` (unless turned off). */
  private checked(call: PendingCall, result: JsonObject): CallToolResult {
    if (call.validateOutput) this.checkOutput(call.name, result);
    return result as CallToolResult;
  }

  /**
   * The rounds after the first: `failed` is how the first failed (then handled as a round's
   * error), `task` the task it created instead of a result (then followed to its result).
   */
  private async rounds(call: PendingCall, failed: unknown, task?: NonNullable<ReturnType<ToolTasks['created']>>): Promise<CallToolResult> {
    const { name, params, requestOptions, onUrlElicitationRequired, maxElicitationRounds, tracked } = call;
    const tasks = this.deps.tasks;
    let relisted = false;
    let first = true;
    for (let round = 0; ; round++) {
      let result: JsonObject;
      try {
        if (first && task === undefined) {
          first = false;
          throw failed;
        }
        if (first) {
          first = false;
          result = await task!.result();
        } else {
          result = await this.deps.request('tools/call', params, requestOptions);
          // A task instead of the result: follow it to the end, transparently.
          const taskHandle = tasks.created(name, result, requestOptions.signal, tracked);
          if (taskHandle) result = await taskHandle.result();
        }
      } catch (e) {
        // 2026-07-28 HTTP: the server wants Mcp-Param-* headers this client did not send as it
        // expects (the tool's inputSchema changed, or was never listed): list again, retry once.
        // @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#client-behavior
        if (e instanceof McpError && e.code === ErrorCode.HeaderMismatch && !relisted && this.deps.relistTools !== undefined && requestOptions.signal?.aborted !== true) {
          relisted = true;
          await this.deps.relistTools();
          round--;
          continue;
        }
        const required = asUrlElicitationRequired(e);
        if (!required) throw e;
        if (!onUrlElicitationRequired || round >= maxElicitationRounds) throw required;
        await this.deps.elicitation.runRequired(required.elicitations, onUrlElicitationRequired, requestOptions.signal);
        continue;
      }
      return this.checked(call, result);
    }
  }

  /**
   * `callToolAsTask`: asked of the approver first and its result checked against the tool's
   * `outputSchema`, as `callTool` does (a task's result is the tool's result).
   */
  async callAsTask(name: string, args: Record<string, unknown> | undefined, ttl: number | undefined, options: RequestOptions): Promise<ToolTaskHandle> {
    if (this.deps.approver !== undefined) await this.approve(this.deps.approver, name, args);
    const handle = await this.deps.tasks.callAsTask(name, args, ttl, options);
    let checked: Promise<CallToolResult & JsonObject> | undefined;
    const result = () =>
      (checked ??= handle.result().then((r) => {
        this.checkOutput(name, r);
        return r;
      }));
    return {
      taskId: handle.taskId,
      get status$() {
        return handle.status$;
      },
      get current() {
        return handle.current;
      },
      result,
      cancel: () => handle.cancel(),
    };
  }

  /** Ask the approver; anything but an explicit approval (or a throw) refuses the call. */
  private async approve(approver: ToolCallApprover, name: string, args: Record<string, unknown> | undefined): Promise<void> {
    const definition = this.deps.tool(name);
    const decision = readDecision(
      await approver({
        server: this.deps.serverInfo(),
        tool: name,
        arguments: args,
        definition,
        annotations: definition?.annotations,
        annotationsTrusted: this.deps.trustedServer,
      }),
    );
    if (!decision.approved) throw new ToolCallDeniedError(name, decision.reason);
  }

  private audit(name: string, args: Record<string, unknown> | undefined, startedAt: number, outcome: ToolCallOutcome, error?: unknown): void {
    const endedAt = this.deps.clock.now();
    const redact = this.deps.redactArguments;
    const record: ToolCallRecord = {
      server: this.deps.serverInfo(),
      tool: name,
      arguments: redact ? redact(args ?? {}) : (args ?? {}),
      startedAt,
      endedAt,
      durationMs: endedAt - startedAt,
      outcome,
    };
    if (error !== undefined) record.error = auditError(error);
    this.deps.records.next(record);
  }

  private checkOutput(name: string, result: JsonObject): void {
    const tool = this.deps.tool(name);
    const rev = this.deps.revision();
    if (!tool?.outputSchema || (rev !== undefined && !allows(rev, 'outputSchema'))) return;
    if (!this.deps.outputValidators.check(name, tool.outputSchema, result, rev)) this.deps.unknownDialect(name, tool.outputSchema.$schema);
  }
}

/** A `tools/call` in progress: what its later rounds need (see `ToolCalls.send`). */
interface PendingCall {
  readonly name: string;
  readonly params: JsonObject;
  readonly requestOptions: RequestOptions & TraceOptions;
  readonly validateOutput: boolean;
  readonly onUrlElicitationRequired: CallToolOptions['onUrlElicitationRequired'];
  readonly maxElicitationRounds: number;
  readonly tracked: ReturnType<ToolTasks['prepare']>;
}
