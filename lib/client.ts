/**
 * The client role: connects to a server, initializes, and sends requests.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import type { PeerInfo } from '../machines/session.machine.js';
import { Session, type SessionOptions } from './session/session.js';

export type ClientOptions = SessionOptions;

/**
 * An MCP client session. `await client.connect(transport)` runs the initialization (offering
 * the latest revision it speaks) and resolves once the session is operating.
 */
export class Client extends Session {
  constructor(options: ClientOptions) {
    super('client', options);
  }
  /** The server's name and version, once initialized. */
  get serverInfo(): PeerInfo | undefined {
    return this.peerInfo;
  }
  /** The server's capabilities, once initialized. */
  get serverCapabilities(): Record<string, unknown> | undefined {
    return this.peerCapabilities;
  }
}

/** Create a client. */
export function createClient(options: ClientOptions): Client {
  return new Client(options);
}

export * from './session/session.js';
