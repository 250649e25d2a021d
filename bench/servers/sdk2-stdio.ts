/**
 * Bench server, official SDK v2 (2.4.0) over stdio: `serveStdio(factory)` with the echo
 * `McpServer`, as its documentation writes it (the opening exchange picks the era).
 * Spawned by the bench with `process.execPath`; exits when the client closes stdin.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createSdk2McpServer } from '../echo/sdk2.js';

serveStdio(() => createSdk2McpServer());
process.stdin.on('end', () => process.exit(0));
