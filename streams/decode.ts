/**
 * Decode and validate: raw frames from a transport in, classified JSON-RPC messages out.
 */
import { map, type OperatorFunction } from 'rxjs';
import { DEFAULT_MAX_FRAME_BYTES, classifyValue, decodeTextWith, deepInbound, oversizeInbound } from '../lib/jsonrpc/codec.js';
import { DEFAULT_MAX_FRAME_DEPTH } from '../lib/jsonrpc/depth.js';
import type { Inbound } from './inbound.js';
import { DeepFrame, OversizeFrame, type RawFrame } from './transport.js';

export interface DecodeOperatorOptions {
  /** Largest accepted text frame, in UTF-8 bytes. Default 4 MiB. */
  maxFrameBytes?: number;
  /**
   * Whether batches are allowed right now. A function because the revision is negotiated
   * mid-stream: it is asked once per frame that is an array.
   */
  allowBatch: () => boolean;
  /** Deepest accepted nesting of a text frame. Default 128 (see `lib/jsonrpc/depth.ts`). */
  maxFrameDepth?: number;
}

/**
 * Decodes each raw frame: text through the JSON-RPC codec, an {@link OversizeFrame} marker to
 * the size error, any other value (in-memory transports) validated as it is. Never errors:
 * bad frames come out as `kind: 'invalid'`.
 */
export function decode(opts: DecodeOperatorOptions): OperatorFunction<RawFrame, Inbound> {
  const limit = opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const allowBatch = opts.allowBatch;
  const depth = opts.maxFrameDepth ?? DEFAULT_MAX_FRAME_DEPTH;
  return map((raw: RawFrame): Inbound => decodeFrame(raw, limit, allowBatch, depth));
}

/**
 * Decode one raw frame (the step `decode` maps over a stream). A value is not walked for its
 * depth here: `parseFrame` did that before the frame was recorded.
 */
export function decodeFrame(raw: RawFrame, limit: number, allowBatch: () => boolean, maxFrameDepth = DEFAULT_MAX_FRAME_DEPTH): Inbound {
  if (typeof raw === 'string') return decodeTextWith(raw, limit, allowBatch, maxFrameDepth);
  if (raw instanceof OversizeFrame) return oversizeInbound(raw.size, raw.limit, raw.head);
  if (raw instanceof DeepFrame) return deepInbound(raw.limit, raw.id, raw.respond);
  return classifyValue(raw, allowBatch);
}
