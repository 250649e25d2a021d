/**
 * Parse text frames into values before they are journaled, so journals and `frames$` hold
 * objects. Text that is not JSON, or too large to parse safely, stays text: `decode` then
 * answers it with the precise error (-32700 or the size limit).
 */
import { map, type OperatorFunction } from 'rxjs';
import type { RawFrame } from './transport.js';

/** One frame: parsed when it is JSON text of an object or array within the limit, else as it was. */
export function parseFrame(raw: RawFrame, maxFrameBytes: number): RawFrame {
  if (typeof raw !== 'string') return raw;
  // UTF-16 length bounds the UTF-8 size from below and a third of it from above.
  if (raw.length * 3 > maxFrameBytes && Buffer.byteLength(raw, 'utf8') > maxFrameBytes) return raw;
  try {
    const value: unknown = JSON.parse(raw);
    // Only objects and arrays go on as values; `"x"` or `1` stay text so the error names them.
    return value !== null && typeof value === 'object' ? value : raw;
  } catch {
    return raw;
  }
}

export function parseJson(maxFrameBytes: number): OperatorFunction<RawFrame, RawFrame> {
  return map((raw) => parseFrame(raw, maxFrameBytes));
}
