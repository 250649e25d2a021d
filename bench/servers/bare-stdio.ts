/**
 * Bench server, bare JSON-RPC (the ceiling): NDJSON lines in on stdin, JSON.parse, answer,
 * JSON.stringify, one write per input chunk. No MCP at all.
 */
import { bareAnswer, serveLines } from '../echo/bare.js';

serveLines(bareAnswer);
