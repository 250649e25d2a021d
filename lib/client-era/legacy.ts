/**
 * The session era on the client: an `initialize` session carries every request (the `Session`
 * base does the work); resource updates are asked for with `resources/subscribe`, root changes
 * are told with `notifications/roots/list_changed`, the log level with `logging/setLevel`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import type { PeerInfo } from '../../machines/session.machine.js';
import type { DiscoveredServer } from '../client-modern/modern-era.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Tool } from '../protocol/schema/index.js';
import type { RequestOptions } from '../session/request-registry.js';
import type { ClientEra, EraRequestOptions } from './era.js';

/** What the session era needs from its client: the `Session` base's own steps. */
export interface LegacyEraHost {
  /** The session's own request (what the era's `request` is). */
  request(method: string, params: JsonObject | undefined, options: RequestOptions | undefined): Promise<JsonObject>;
  /** The client's request, through its interceptors (subscriptions go that way, as the user's calls). */
  send(method: string, params: JsonObject | undefined, options: RequestOptions | undefined): Promise<JsonObject>;
  ping(options: RequestOptions | undefined): Promise<void>;
  keepAliveProbe(timeout: number): Promise<unknown>;
  whenOperating(): Promise<void>;
  notify(method: string): void;
  operating(): boolean;
  warn(kind: 'unsubscribe-failed', message: string, detail: unknown): void;
  /** What `initialize` negotiated and said (undefined before). */
  protocolVersion(): string | undefined;
  peerInfo(): PeerInfo | undefined;
  peerCapabilities(): Record<string, unknown> | undefined;
  instructions(): string | undefined;
}

export class LegacyEra implements ClientEra {
  readonly tasksExtension = false;
  readonly setsLogLevel = true;

  constructor(private readonly host: LegacyEraHost) {}

  get name(): 'legacy' | undefined {
    return this.host.protocolVersion() !== undefined ? 'legacy' : undefined;
  }
  get serverInfo(): PeerInfo | undefined {
    return this.host.peerInfo();
  }
  get serverCapabilities(): Record<string, unknown> | undefined {
    return this.host.peerCapabilities();
  }
  get protocolVersion(): string | undefined {
    return this.host.protocolVersion();
  }

  request(method: string, params: JsonObject | undefined, options: EraRequestOptions | undefined): Promise<JsonObject> {
    return this.host.request(method, params, options);
  }

  ping(options: RequestOptions | undefined): Promise<void> {
    return this.host.ping(options);
  }

  keepAliveProbe(timeout: number): Promise<unknown> {
    return this.host.keepAliveProbe(timeout);
  }

  /** What `initialize` said, once it did. */
  async discover(): Promise<DiscoveredServer> {
    await this.host.whenOperating();
    const out: DiscoveredServer = { era: 'legacy', supportedVersions: [this.host.protocolVersion()!], capabilities: this.host.peerCapabilities() ?? {}, serverInfo: this.host.peerInfo() };
    if (this.host.instructions() !== undefined) out.instructions = this.host.instructions();
    return out;
  }

  subscribe(uri: string, options: RequestOptions | undefined): Promise<void> {
    return this.host.send('resources/subscribe', { uri }, options).then(() => undefined);
  }

  unsubscribe(uri: string, ready: Promise<unknown>): void {
    if (!this.host.operating()) return;
    ready.then(
      () =>
        this.host.send('resources/unsubscribe', { uri }, undefined).then(
          () => undefined,
          (err: unknown) => this.host.warn('unsubscribe-failed', `resources/unsubscribe for ${uri} failed: ${(err as Error)?.message}`, err),
        ),
      () => undefined,
    );
  }

  /** A session hears of changes by its notifications: nothing to open. */
  refreshListen(): void {}

  rootsChanged(): void {
    if (this.host.operating()) this.host.notify('notifications/roots/list_changed');
  }

  admitTools(tools: Tool[]): Tool[] {
    return tools;
  }

  /** A session's notifications reach the client's handlers through the session. */
  onNotification(): void {}

  /** The session ends the requests it carries. */
  stop(): void {}
}
