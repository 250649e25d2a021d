/**
 * The journal entry of an inbound frame as a transport delivered it: parsed, text, too large or
 * nested too deep (the last two keep no value; see lib/jsonrpc/depth.ts).
 */
import { DeepFrame, OversizeFrame, type RawFrame } from '../../streams/transport.js';
import type { InEntry, Unstamped } from './entry.js';

export function inEntryOf(raw: RawFrame): Unstamped<InEntry> {
  if (typeof raw === 'string') return { kind: 'in', text: raw };
  if (raw instanceof OversizeFrame) {
    return { kind: 'in', oversize: raw.head === undefined ? { size: raw.size, limit: raw.limit } : { size: raw.size, limit: raw.limit, head: raw.head } };
  }
  if (raw instanceof DeepFrame) return { kind: 'in', tooDeep: { limit: raw.limit, id: raw.id, respond: raw.respond } };
  return { kind: 'in', frame: raw };
}
