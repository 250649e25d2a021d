/**
 * NDJSON framing, outbound: one frame per line.
 */
import { map, type OperatorFunction } from 'rxjs';
import { encodeFrame } from '../lib/jsonrpc/codec.js';
import type { Frame } from '../lib/jsonrpc/message.js';

/** One frame as one NDJSON line, newline included. The JSON never holds a raw `\n`. */
export function toNdjsonLine(frame: Frame): string {
  return encodeFrame(frame) + '\n';
}

/** Encodes each frame as one NDJSON line (`JSON + '\n'`). */
export function ndjsonEncode(): OperatorFunction<Frame, string> {
  return map(toNdjsonLine);
}
