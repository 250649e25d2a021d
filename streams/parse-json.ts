/**
 * Parse text frames into values before they are journaled, so journals and `frames$` hold
 * objects. Text that is not JSON, or too large to parse safely, stays text: `decode` then
 * answers it with the precise error (-32700 or the size limit).
 */
import { map, type OperatorFunction } from 'rxjs';
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan, textMayNestDeeperThan, topLevelOf } from '../lib/jsonrpc/depth.js';
import { DeepFrame, type RawFrame } from './transport.js';
import { utf8ByteLength } from '../lib/crypto/bytes.js';
import { learnMeta, parseKnownMeta } from './known-meta.js';

/**
 * One frame: parsed when it is JSON text of an object or array within the limits, else as it
 * was. A text nested deeper than `maxFrameDepth` becomes a {@link DeepFrame}, so neither the
 * journal nor `frames$` nor a handler ever walks it. Values are handed on as they are: the
 * transports that parse text themselves (the HTTP servers' bodies, the HTTP clients' events)
 * check the depth where the text's length can spare the walk; an in-memory peer's values are
 * the process's own.
 */
export function parseFrame(raw: RawFrame, maxFrameBytes: number, maxFrameDepth = DEFAULT_MAX_FRAME_DEPTH): RawFrame {
  if (typeof raw !== 'string') return raw;
  // UTF-16 length bounds the UTF-8 size from below and a third of it from above.
  if (raw.length * 3 > maxFrameBytes && utf8ByteLength(raw) > maxFrameBytes) return raw;
  // A request ending with the envelope of the one before: the envelope is not parsed again.
  let value = parseKnownMeta(raw);
  if (value === undefined) {
    try {
      value = JSON.parse(raw);
    } catch {
      return raw;
    }
    if (value !== null && typeof value === 'object') learnMeta(raw, value);
  }
  // Only objects and arrays go on as values; `"x"` or `1` stay text so the error names them.
  if (value === null || typeof value !== 'object') return raw;
  // Text whose length (and its few `[`) bounds its depth within the limit is not walked: most frames.
  if (textMayNestDeeperThan(raw, maxFrameDepth) && nestsDeeperThan(value, maxFrameDepth)) return deepFrame(value, maxFrameDepth);
  return value;
}

function deepFrame(value: object, limit: number): DeepFrame {
  const { id, respond } = topLevelOf(value);
  return new DeepFrame(limit, id, respond);
}

export function parseJson(maxFrameBytes: number, maxFrameDepth = DEFAULT_MAX_FRAME_DEPTH): OperatorFunction<RawFrame, RawFrame> {
  return map((raw) => parseFrame(raw, maxFrameBytes, maxFrameDepth));
}
