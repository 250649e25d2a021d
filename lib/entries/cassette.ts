/**
 * `mcp-actors/cassette`: a recorded session (a journal file) served back to a client under test,
 * so a test runs without the real server; made from the journal tools of the CLI (`record`,
 * `replay`), which is where its parts live.
 */
export { cassette, type Cassette, type CassetteOptions } from '../cli/cassette.js';
