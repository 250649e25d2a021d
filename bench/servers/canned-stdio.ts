/**
 * A scripted MCP peer on stdio for `client-cost.ts`: answers discover or initialize, then every
 * `tools/call` with a result made of canned text around the request's id (the 2026-07-28 one with
 * `resultType` and `_meta.serverInfo`, as our server sends it), one write per input chunk. No MCP
 * server runs, so the client process's CPU is the client's own cost on a real pipe.
 */
import { serveLines } from '../echo/bare.js';

const SERVER_INFO = '{"name":"bench-server","version":"1.0.0"}';
const TEXT = '"hello, bench"';
const MODERN_RESULT = `{"content":[{"type":"text","text":${TEXT}}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":${SERVER_INFO}}}`;
const LEGACY_RESULT = `{"content":[{"type":"text","text":${TEXT}}]}`;
const MODERN_MARK = '"io.modelcontextprotocol/protocolVersion"';

serveLines((line) => {
  // The id and method are read from the parsed line only off the hot path (the handshake).
  if (line.includes('"tools/call"')) {
    const idAt = line.indexOf('"id":') + 5;
    const id = line.slice(idAt, line.indexOf(',', idAt));
    return `{"jsonrpc":"2.0","id":${id},"result":${line.includes(MODERN_MARK) ? MODERN_RESULT : LEGACY_RESULT}}`;
  }
  const msg = JSON.parse(line) as { id?: number | string; method?: string };
  if (msg.id === undefined || msg.method === undefined) return undefined;
  let result: string;
  if (msg.method === 'server/discover') result = `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":${SERVER_INFO},"resultType":"complete"}`;
  else if (msg.method === 'initialize') result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":${SERVER_INFO}}`;
  else result = '{}';
  return `{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":${result}}`;
});
