/**
 * Decode and validate: raw frames from a transport in, classified JSON-RPC messages out.
 */
import { map, type OperatorFunction } from 'rxjs';
import { DEFAULT_MAX_FRAME_BYTES, classifyValue, decodeTextWith, oversizeInbound } from '../lib/jsonrpc/codec.js';
import type { Inbound } from './inbound.js';
import { OversizeFrame, type RawFrame } from './transport.js';

export interface DecodeOperatorOptions {
  /** Largest accepted text frame, in UTF-8 bytes. Default 4 MiB. */
  maxFrameBytes?: number;
  /**
   * Whether batches are allowed right now. A function because the revision is negotiated
   * mid-stream: it is asked once per frame that is an array.
   */
  allowBatch: () => boolean;
}

/**
 * Decodes each raw frame: text through the JSON-RPC codec, an {@link OversizeFrame} marker to
 * the size error, any other value (in-memory transports) validated as it is. Never errors:
 * bad frames come out as `kind: 'invalid'`.
 */
export function decode(opts: DecodeOperatorOptions): OperatorFunction<RawFrame, Inbound> {
  const limit = opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const allowBatch = opts.allowBatch;
  return map((raw: RawFrame): Inbound => decodeFrame(raw, limit, allowBatch));
}

/** Decode one raw frame (the step `decode` maps over a stream). */
export function decodeFrame(raw: RawFrame, limit: number, allowBatch: () => boolean): Inbound {
  if (typeof raw === 'string') return decodeTextWith(raw, limit, allowBatch);
  if (raw instanceof OversizeFrame) return oversizeInbound(raw.size, raw.limit, raw.head);
  return classifyValue(raw, allowBatch);
}
