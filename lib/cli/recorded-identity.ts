/**
 * Who the recorded server was, for a mock server to say the same: its info, capabilities and
 * instructions from the `initialize` result (legacy), else `server/discover` (2026-07-28), else
 * what the recording shows (a 2026-07-28 client need not ask `server/discover`: the official SDK's
 * stdio client probes on a throwaway process the recorder never sees). Then the server's info is
 * in every result's `_meta`, and its capabilities are those the requests it answered needed, the
 * opt-ins its listen streams honoured and the notifications it sent.
 */
import { META } from '../protocol/schema/modern.js';
import type { RecordedSession } from './recorded-exchanges.js';

export interface RecordedIdentity {
  info: { name: string; version: string; [key: string]: unknown };
  capabilities: Record<string, unknown>;
  instructions?: string;
}

const FALLBACK_INFO = { name: 'mcp-actors-replay', version: '0' };

type Caps = Record<string, Record<string, unknown>>;

function add(caps: Caps, name: string, flag?: string): void {
  caps[name] ??= {};
  if (flag) caps[name]![flag] = true;
}

/** Capabilities the recording shows the server had. */
function inferCapabilities(rec: RecordedSession): Caps {
  const caps: Caps = {};
  for (const ex of rec.exchanges) {
    if (!ex.response || ex.response.frame.error) continue;
    const method = String(ex.request.frame.method);
    if (method.startsWith('tools/')) add(caps, 'tools');
    else if (method === 'resources/subscribe') add(caps, 'resources', 'subscribe');
    else if (method.startsWith('resources/')) add(caps, 'resources');
    else if (method.startsWith('prompts/')) add(caps, 'prompts');
    else if (method === 'completion/complete') add(caps, 'completions');
    else if (method === 'logging/setLevel') add(caps, 'logging');
  }
  const frames = [...rec.exchanges.flatMap((e) => e.during), ...rec.unsolicited.map((p) => p.message)].map((m) => m.frame);
  for (const f of frames) {
    if (f.method === 'notifications/message') add(caps, 'logging');
    else if (f.method === 'notifications/tools/list_changed') add(caps, 'tools', 'listChanged');
    else if (f.method === 'notifications/prompts/list_changed') add(caps, 'prompts', 'listChanged');
    else if (f.method === 'notifications/resources/list_changed') add(caps, 'resources', 'listChanged');
    else if (f.method === 'notifications/resources/updated') add(caps, 'resources', 'subscribe');
    else if (f.method === 'notifications/subscriptions/acknowledged') {
      const honoured = (f.params?.notifications ?? {}) as Record<string, unknown>;
      if (honoured.toolsListChanged === true) add(caps, 'tools', 'listChanged');
      if (honoured.promptsListChanged === true) add(caps, 'prompts', 'listChanged');
      if (honoured.resourcesListChanged === true) add(caps, 'resources', 'listChanged');
      if (Array.isArray(honoured.resourceSubscriptions)) add(caps, 'resources', 'subscribe');
    }
  }
  return caps;
}

export function recordedIdentity(rec: RecordedSession): RecordedIdentity {
  const resultOf = (method: string) => rec.exchanges.find((e) => e.request.frame.method === method && e.response?.frame.result)?.response!.frame.result as Record<string, any> | undefined;
  const init = resultOf('initialize');
  const discover = resultOf('server/discover');
  const answered = rec.exchanges.filter((e) => e.response);
  if (!init && !discover && answered.length === 0) throw new Error('The recording holds no answered request: nothing to serve');
  const infoInMeta = answered.map((e) => e.response!.frame.result?._meta?.[META.serverInfo]).find((i) => i && typeof i.name === 'string');
  const info = (init?.serverInfo ?? discover?._meta?.[META.serverInfo] ?? discover?.serverInfo ?? infoInMeta ?? FALLBACK_INFO) as RecordedIdentity['info'];
  const capabilities = (init?.capabilities ?? discover?.capabilities ?? inferCapabilities(rec)) as Record<string, unknown>;
  const instructions = init?.instructions ?? discover?.instructions;
  return { info, capabilities, ...(typeof instructions === 'string' && { instructions }) };
}
