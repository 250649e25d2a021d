/**
 * NDJSON framing: a stream of byte (or text) chunks in, one string per line out.
 */
import { Observable, type OperatorFunction } from 'rxjs';
import { DEFAULT_MAX_FRAME_BYTES } from '../lib/jsonrpc/codec.js';
import { OVERSIZE_HEAD_CHARS, OversizeFrame } from './transport.js';

export interface NdjsonSplitOptions {
  /** Largest accepted line, in UTF-8 bytes, not counting the newline. Default 4 MiB. */
  maxLineBytes?: number;
}

const NL = 10; // '\n'
const CR = 13; // '\r'
const STREAM = { stream: true } as const;

/**
 * Splits chunks into lines on `\n`.
 *
 * - A trailing `\r` is stripped (`\r\n` peers); empty and whitespace-only lines are skipped.
 * - Byte chunks are decoded as UTF-8 in streaming mode, so a character split across chunks
 *   arrives whole. String chunks are taken as they are.
 * - A line longer than `maxLineBytes` is not buffered: the operator emits one
 *   `OversizeFrame(size, limit)` as soon as the limit is passed (`size` is the number of bytes
 *   seen by then, so a lower bound of the line's length), drops the rest of that line up to the
 *   next newline, and goes on with the next line.
 * - On completion, a last line without a newline is still emitted when it is not blank: a peer
 *   that closes right after its last message without a trailing newline loses nothing.
 */
export function ndjsonSplit(opts: NdjsonSplitOptions = {}): OperatorFunction<Uint8Array | string, string | OversizeFrame> {
  const limit = opts.maxLineBytes ?? DEFAULT_MAX_FRAME_BYTES;
  return (source) =>
    new Observable<string | OversizeFrame>((subscriber) => {
      let decoder = new TextDecoder('utf-8');
      // The decoder holds no partial character and has seen its first chunk (where it strips a
      // BOM): then a Buffer chunk ending in an ASCII byte can be decoded directly, ~2x cheaper.
      let decoderClean = false;
      // Pieces of the unfinished line, joined once at its newline: no repeated concatenation.
      let parts: string[] = [];
      let pendingChars = 0;
      // Exact UTF-8 size of `parts`, kept only once the line is long enough to matter (-1 before).
      let pendingBytes = -1;
      // Past the limit: drop everything up to the next newline.
      let discarding = false;

      const resetPending = (): void => {
        if (pendingChars !== 0 || parts.length !== 0) parts = [];
        pendingChars = 0;
        pendingBytes = -1;
      };

      const emitLine = (line: string): void => {
        let end = line.length;
        if (end !== 0 && line.charCodeAt(end - 1) === CR) end--;
        if (end === 0) return;
        if (end !== line.length) line = line.slice(0, end);
        if (isBlankStart(line.charCodeAt(0)) && line.trim().length === 0) return;
        subscriber.next(line);
      };

      /** Adds a piece to the unfinished line; false when that passes the limit. */
      const addPiece = (piece: string): boolean => {
        const chars = pendingChars + piece.length;
        if (chars * 3 > limit) {
          // UTF-8 takes at most 3 bytes per UTF-16 unit: count exactly only from here on.
          if (pendingBytes < 0) pendingBytes = byteLengthOf(parts);
          const bytes = pendingBytes + Buffer.byteLength(piece, 'utf8');
          if (bytes > limit) {
            const head = (parts.length > 0 ? parts[0]! : piece).slice(0, OVERSIZE_HEAD_CHARS);
            resetPending();
            subscriber.next(new OversizeFrame(bytes, limit, head));
            return false;
          }
          pendingBytes = bytes;
        }
        pendingChars = chars;
        parts.push(piece);
        return true;
      };

      const onText = (text: string, from: number): void => {
        const len = text.length;
        let start = from;
        while (start < len && !subscriber.closed) {
          const nl = text.indexOf('\n', start);
          if (discarding) {
            if (nl < 0) return;
            discarding = false;
            start = nl + 1;
            continue;
          }
          if (nl < 0) {
            if (!addPiece(start === 0 ? text : text.slice(start))) discarding = true;
            return;
          }
          if (pendingChars === 0 && parts.length === 0) {
            // The common case: the whole line lies in this chunk.
            const n = nl - start;
            if (n * 3 > limit) {
              const line = text.slice(start, nl);
              const bytes = Buffer.byteLength(line, 'utf8');
              if (bytes > limit) subscriber.next(new OversizeFrame(bytes, limit, line.slice(0, OVERSIZE_HEAD_CHARS)));
              else emitLine(line);
            } else if (n !== 0) {
              emitLine(text.slice(start, nl));
            }
          } else if (addPiece(text.slice(start, nl))) {
            const line = parts.length === 1 ? parts[0]! : parts.join('');
            resetPending();
            emitLine(line);
          }
          start = nl + 1;
        }
      };

      const onBytes = (chunk: Uint8Array): void => {
        let from = 0;
        if (discarding) {
          // Skip dropped bytes without decoding them. A newline byte never occurs inside a
          // multi-byte character, so a fresh decoder after it is in step with the stream.
          const nl = chunk.indexOf(NL);
          if (nl < 0) return;
          discarding = false;
          decoder = new TextDecoder('utf-8');
          decoderClean = false;
          from = nl + 1;
          if (from === chunk.length) return;
        }
        const endsAscii = chunk[chunk.length - 1]! < 0x80;
        let text: string;
        if (decoderClean && endsAscii && Buffer.isBuffer(chunk)) {
          // No character can start before this chunk or end after it: nothing to carry over.
          text = chunk.toString('utf8', from);
        } else {
          text = decoder.decode(from === 0 ? chunk : chunk.subarray(from), STREAM);
          decoderClean = endsAscii;
        }
        if (text.length !== 0) onText(text, 0);
      };

      return source.subscribe({
        next(chunk) {
          if (typeof chunk === 'string') onText(chunk, 0);
          else onBytes(chunk);
        },
        error(err) {
          subscriber.error(err);
        },
        complete() {
          if (!discarding) {
            // Flush the decoder: an incomplete character at the very end becomes U+FFFD.
            const tail = decoder.decode();
            const kept = tail.length === 0 || addPiece(tail);
            if (kept && parts.length !== 0) {
              const line = parts.join('');
              resetPending();
              emitLine(line);
            }
          }
          subscriber.complete();
        },
      });
    });
}

/** Space, tab, CR, LF and the other characters `String.prototype.trim` removes start with one of these. */
function isBlankStart(c: number): boolean {
  return c <= 32 || c === 0xa0 || c === 0xfeff || (c >= 0x1680 && c <= 0x3000);
}

function byteLengthOf(parts: string[]): number {
  let n = 0;
  for (let i = 0; i < parts.length; i++) n += Buffer.byteLength(parts[i]!, 'utf8');
  return n;
}
