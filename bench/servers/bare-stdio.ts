/**
 * Bench server, bare JSON-RPC (the ceiling): NDJSON lines in on stdin, JSON.parse, answer,
 * JSON.stringify, one write per input chunk. No MCP at all.
 */
import { bareAnswer, lineSplitter } from '../echo/bare.js';

let out = '';
const split = lineSplitter((line) => {
  out += bareAnswer(line) + '\n';
});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  split(chunk);
  if (out !== '') {
    process.stdout.write(out);
    out = '';
  }
});
process.stdin.on('end', () => process.exit(0));
