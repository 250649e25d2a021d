/**
 * Mounts the host's namespaced tools (`<server>__<tool>`) on a downstream {@link McpServer} and
 * keeps them in step with `host.tools$`: a tool that appears upstream (or a server that comes
 * back) is registered, one that goes (or a server that dies) is removed; the server's own
 * list_changed notifications tell downstream clients. Calls are forwarded with the caller's
 * progress and cancellation.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 */
import { map, type Subscription } from 'rxjs';
import type { Clock } from '../clock.js';
import type { Host, HostTool } from '../host/host.js';
import type { McpServer } from '../mcp-server.js';
import type { SchemaInput } from '../server-features/json-schema.js';
import type { ToolHandle } from '../server-features/tools.js';
import { forwardToolCall, runsExtensionTasks } from './forward-call.js';
import type { InputBridge } from './input-bridge.js';
import { mountList } from './mount-list.js';
import type { UpstreamFaults } from './upstream-fault.js';
import type { CompiledView } from './server-views.js';
import type { Route } from './session-upstreams.js';

/**
 * A tool with the name callers see (`shown`; its server's view may rename it), and whether its
 * upstream speaks 2026-07-28 with the tasks extension (`extensionTasks`: a tool there lists no
 * `execution`, as the server decides per call whether to run it as a task).
 */
type ShownTool = HostTool & { shown: string; extensionTasks: boolean };

export function mountTools(host: Host, server: McpServer, bridge: InputBridge, route: Route, views: (server: string) => CompiledView, clock: Clock, faults: UpstreamFaults): Subscription {
  const shown$ = host.tools$.pipe(map((tools) => tools.flatMap((t): ShownTool[] => {
    const shown = views(t.server).tool(t.originalName);
    return shown === undefined ? [] : [{ ...t, shown: host.qualify(t.server, shown), extensionTasks: runsExtensionTasks(host.client(t.server)) }];
  })));
  return mountList(shown$, (tool) => tool.name, (tool) => register(server, bridge, route, tool, clock, faults));
}

function register(server: McpServer, bridge: InputBridge, route: Route, tool: ShownTool, clock: Clock, faults: UpstreamFaults): ToolHandle {
  const config = {
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    // Task support carries over: a downstream task-augmented call becomes a task of the gateway
    // (create, poll, result, cancel), whose forwarded call runs the upstream's own task when
    // the upstream requires one (the client polls it) and is cancelled with it. "required" is
    // offered as "optional": the gateway serves a plain call too, so callers without tasks can.
    ...(tool.execution !== undefined ? { execution: tool.execution.taskSupport === 'required' ? { ...tool.execution, taskSupport: 'optional' as const } : tool.execution } : {}),
    // A 2026-07-28 upstream with the tasks extension may make any call a task: offered as optional.
    ...(tool.execution === undefined && tool.extensionTasks ? { execution: { taskSupport: 'optional' as const } } : {}),
    inputSchema: tool.inputSchema as SchemaInput,
  };
  return server.registerTool(tool.shown, config, async (args, ctx) => {
    const { host, key } = await route(ctx, tool.server);
    // The call's own signal (a 2026-07-28 caller's input round does not cancel it) and its live
    // caller's progress; a fault of the link is the caller's protocol error, not a tool result.
    return bridge.run(key, ctx, { name: tool.shown, arguments: args }, (call) =>
      faults.guard(host, tool.server, 'tools/call', () =>
        forwardToolCall(host, clock, { server: tool.server, qualified: tool.name, name: tool.originalName, args, taskSupport: tool.execution?.taskSupport }, {
          signal: call.signal,
          onprogress: (p) => call.ctx.progress(p.progress, p.total, p.message),
        }),
      ),
    );
  });
}
