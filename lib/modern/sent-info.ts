/**
 * The server info a 2026-07-28 result carries in `_meta` (SHOULD), the same on every answer: a
 * sealed, frozen copy of the options' info, whose JSON text every stdio and HTTP answer then
 * reuses (`lib/jsonrpc/sealed-json.ts`) instead of serializing it again per answer.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import type { JsonObject } from '../jsonrpc/message.js';
import { sealedCopy } from '../jsonrpc/sealed-json.js';

export class SentInfo {
  private source: unknown;
  private sent: unknown;

  /**
   * What a result carries for `info`: its copy, made again when the options are given another
   * info object; `info` itself when it is not plain JSON data. The copy is taken at the first
   * answer: a change made inside the info object afterwards is not seen (nor can anyone who
   * receives the copy by reference, an in-memory client, change it).
   */
  of(info: unknown): JsonObject {
    if (info !== this.source) {
      this.source = info;
      this.sent = (info !== null && typeof info === 'object' && sealedCopy(info)) || info;
    }
    return this.sent as JsonObject;
  }
}
