/**
 * Mounts the host's namespaced prompts (`<server>__<prompt>`) on the downstream server, kept in
 * step with `host.prompts$`. `prompts/get` goes to the prompt's server with the caller's
 * cancellation (and its input requests bridged); argument completions go to that server when it
 * offers `completions`, so the gateway declares `completions` only for such prompts.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion
 */
import { map, type Subscription } from 'rxjs';
import type { Host, HostPrompt } from '../host/host.js';
import type { McpServer } from '../mcp-server.js';
import type { CompleteCallback } from '../server-features/completion.js';
import type { PromptArgumentConfig, PromptHandle } from '../server-features/prompts.js';
import type { InputBridge } from './input-bridge.js';
import { mountList } from './mount-list.js';
import type { CompiledView } from './server-views.js';
import type { Route } from './session-upstreams.js';
import type { UpstreamFaults } from './upstream-fault.js';

/** A prompt with the name callers see (its server's view may rename it). */
type ShownPrompt = HostPrompt & { shown: string };

export function mountPrompts(host: Host, server: McpServer, bridge: InputBridge, route: Route, views: (server: string) => CompiledView, faults: UpstreamFaults): Subscription {
  const shown$ = host.prompts$.pipe(map((prompts) => prompts.flatMap((p): ShownPrompt[] => {
    const shown = views(p.server).prompt(p.originalName);
    return shown === undefined ? [] : [{ ...p, shown: host.qualify(p.server, shown) }];
  })));
  return mountList(shown$, (prompt) => prompt.name, (prompt) => register(host, server, bridge, route, prompt, faults));
}

/** Completion of one argument of `prompt`, asked of its server; undefined when it offers none. */
function completer(host: Host, prompt: HostPrompt, argument: string, faults: UpstreamFaults): CompleteCallback | undefined {
  const client = host.client(prompt.server);
  if (client?.serverCapabilities?.completions === undefined) return undefined;
  return async (value, context, ctx) => {
    const result = await faults.guard(host, prompt.server, 'completion/complete', () =>
      client.complete({ type: 'ref/prompt', name: prompt.originalName }, { name: argument, value }, { arguments: context.arguments }, { signal: ctx.signal }),
    );
    return result.completion;
  };
}

function register(host: Host, server: McpServer, bridge: InputBridge, route: Route, prompt: ShownPrompt, faults: UpstreamFaults): PromptHandle {
  const args: PromptArgumentConfig[] = (prompt.arguments ?? []).map((a) => {
    const complete = completer(host, prompt, a.name, faults);
    return { ...a, ...(complete && { complete }) };
  });
  const config = {
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    ...(prompt.icons !== undefined ? { icons: prompt.icons } : {}),
    arguments: args,
  };
  return server.registerPrompt(prompt.shown, config, async (values, ctx) => {
    // Only the arguments the caller gave: the upstream decides about the missing optional ones.
    const given = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const upstream = await route(ctx, prompt.server);
    return bridge.run(upstream.key, ctx, { name: prompt.shown, arguments: given }, (call) =>
      faults.guard(upstream.host, prompt.server, 'prompts/get', () => upstream.host.getPrompt(prompt.name, given, { signal: call.signal })),
    );
  });
}
