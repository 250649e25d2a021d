/**
 * A 2026-07-28 server ends every complete result it sends with the same text: `resultType`, then
 * `_meta` holding its `serverInfo`, which does not change between answers. Parsing that tail (two
 * objects, three strings, a long key) is about half the cost of parsing a small tool result. A
 * response line `{"jsonrpc":"2.0","id":<n>,"result":{...<tail>}` whose tail is the one seen
 * before is read here with only the result's own members parsed; the tail's values are set on it
 * as fresh copies, so the value is the one `JSON.parse` makes of the whole line (same keys, same
 * order, nothing shared between answers). Any other line is left to `JSON.parse`.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import type { JsonObject } from '../jsonrpc/message.js';
import { copyParsedJson } from '../jsonrpc/spread-copy.js';
import { META } from '../protocol/schema/modern.js';

/** The start of a response line as compact JSON writes it, up to the id's digits. */
const HEAD = '{"jsonrpc":"2.0","id":';
/** After the id: the result, the last member of the line's object. */
const RESULT_KEY = ',"result":';
/** The tail's text up to the server info's own JSON text; `}}}` closes `_meta`, the result and the line. */
const TAIL_HEAD = `,"resultType":"complete","_meta":{${JSON.stringify(META.serverInfo)}:`;
const TAIL_END = '}}}';
/** Ids of up to 15 digits are read exactly as JSON.parse reads them; longer ones go to JSON.parse. */
const MAX_ID_DIGITS = 15;

const CHAR_0 = 48;
const CHAR_9 = 57;
const OPEN_BRACE = 123;

/**
 * Reads response lines of one server (see the module comment). `read` returns the result of a
 * line it could read and leaves its id in `id`; `learn` takes the tail of a line `JSON.parse` read.
 */
export class AnswerText {
  /** The id of the line `read` last read. */
  id = 0;
  /** The tail's text as last seen: `TAIL_HEAD`, the server info's text, `TAIL_END`. */
  private tail: string | undefined;
  /** The server info the tail holds, copied into each result read (never handed out itself). */
  private info: JsonObject = {};
  /**
   * No value of the server info is an object: a spread copies it (one step, the same map; nothing
   * is added to the copy, so Node 20's slow path for grown spread copies is not met).
   */
  private flatInfo = false;

  /** The result of `text` if it is a response of the known shape and tail (and its id in `id`), else undefined. */
  read(text: string): JsonObject | undefined {
    const tail = this.tail;
    if (tail === undefined) return undefined;
    const membersEnd = text.length - tail.length;
    // Compared as slices: `===` on two flat strings is a block compare, where endsWith and
    // startsWith went char by char (~200 ns for the two).
    if (membersEnd <= HEAD.length || text.slice(membersEnd) !== tail || text.slice(0, HEAD.length) !== HEAD) return undefined;
    let at = HEAD.length;
    let c = text.charCodeAt(at);
    let id = 0;
    // JSON's integers: no leading zero but for 0 itself.
    if (c === CHAR_0) at++;
    else {
      while (c >= CHAR_0 && c <= CHAR_9) {
        id = id * 10 + (c - CHAR_0);
        c = text.charCodeAt(++at);
      }
    }
    if (at === HEAD.length || at - HEAD.length > MAX_ID_DIGITS || !text.startsWith(RESULT_KEY, at)) return undefined;
    // The result's members must end in a value: `{` there (an empty result) would make the whole line `{,` (not JSON).
    const last = text.charCodeAt(membersEnd - 1);
    if (last === OPEN_BRACE || last <= 32) return undefined;
    let result: unknown;
    try {
      // Its members and the brace the tail would close it with: a valid object here, and the tail
      // appended as its last members, is exactly the line's result.
      result = JSON.parse(text.slice(at + RESULT_KEY.length, membersEnd) + '}');
    } catch {
      return undefined;
    }
    // Only an object's text ends in `}`; set as JSON.parse sets members (a repeated key keeps its place).
    const out = result as JsonObject;
    out.resultType = 'complete';
    // META.serverInfo spelled out: a literal's constant key makes the object in one step.
    out._meta = { 'io.modelcontextprotocol/serverInfo': this.flatInfo ? { ...this.info } : copyParsedJson(this.info) } as JsonObject;
    this.id = id;
    return out;
  }

  /**
   * A line `JSON.parse` read, and its result: if the line ends with the tail of this result's own
   * server info, as compact JSON writes it, that tail is the one `read` looks for from now on.
   * (No text is searched: a result without server info costs two reads of a key.)
   */
  learn(text: string, result: JsonObject): void {
    const meta = result._meta;
    if (result.resultType !== 'complete' || meta === null || typeof meta !== 'object') return;
    const info = (meta as JsonObject)[META.serverInfo];
    if (info === null || typeof info !== 'object' || Array.isArray(info) || !text.endsWith(TAIL_END)) return;
    const tail = TAIL_HEAD + JSON.stringify(info) + TAIL_END;
    if (tail === this.tail || !text.endsWith(tail)) return;
    this.tail = tail;
    // A copy: the result handed on holds `info` itself, and its owner may change it.
    this.info = copyParsedJson(info) as JsonObject;
    this.flatInfo = Object.values(info).every((v) => v === null || typeof v !== 'object');
  }
}
