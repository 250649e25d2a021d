/**
 * Starting something on a port that must be known before it starts (an issuer URL, a registered
 * redirect, a config file), robustly.
 *
 * A port found free (listen on 0, read, close) can be taken by anything else on the machine
 * (the other mocha worker, a child it spawned) before our child binds it. Whatever can listen on
 * port 0 and report its port should do that instead; for the rest, {@link startOnFreePorts}
 * treats a failed bind as a lost race: it picks new ports and starts again, so a stolen port
 * costs a retry, not a red run.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** Thrown (or recognized) when a start failed because its port was taken. */
export class PortTaken extends Error {
  constructor(
    readonly port: number,
    detail = '',
  ) {
    super(`port ${port} was taken before the start could bind it${detail ? `: ${detail}` : ''}`);
    this.name = 'PortTaken';
  }
}

/** Whether `error` says an address was in use (a node `EADDRINUSE`, or {@link PortTaken}). */
export function isPortTaken(error: unknown): boolean {
  if (error instanceof PortTaken) return true;
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === 'EADDRINUSE' || (typeof e?.message === 'string' && /EADDRINUSE/.test(e.message));
}

/**
 * `count` different ports that were free a moment ago: all are held open together (so no two
 * are the same), then released.
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const probe = createServer();
      probe.unref();
      held.push(probe);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          probe.once('error', reject);
          probe.listen(0, '127.0.0.1', () => {
            const address = probe.address();
            if (address && typeof address === 'object') resolve(address.port);
            else reject(new Error('no port was assigned'));
          });
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(held.map((probe) => new Promise<void>((resolve) => (probe.listening ? probe.close(() => resolve()) : resolve()))));
  }
}

/**
 * Start something on `count` free ports; when the start fails because a port was taken
 * ({@link isPortTaken}), pick new ports and start again, at most `tries` times. Any other
 * failure is thrown at once. The start must clean up after itself when it throws.
 */
export async function startOnFreePorts<T>(count: number, start: (ports: number[]) => Promise<T>, tries = 5): Promise<T> {
  const lost: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const ports = await freePorts(count);
    try {
      return await start(ports);
    } catch (error) {
      if (!isPortTaken(error)) throw error;
      lost.push(`${ports.join(', ')}: ${(error as Error).message}`);
      if (attempt >= tries) throw new Error(`no start bound its ports in ${tries} tries:\n${lost.join('\n')}`, { cause: error });
    }
  }
}

/** {@link startOnFreePorts} with one port. */
export function startOnFreePort<T>(start: (port: number) => Promise<T>, tries = 5): Promise<T> {
  return startOnFreePorts(1, ([port]) => start(port!), tries);
}

/**
 * Whether process `pid` holds the socket listening on 127.0.0.1:`port` (Linux: /proc/net/tcp and
 * the process's descriptors). For a child that says it listens even when its bind failed (the
 * conformance suite's callback server prints "started" from Express 5's listen callback, which
 * also runs on an error). Undefined where /proc cannot tell.
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  let table: string;
  try {
    table = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  // Columns: sl local_address rem_address st … inode; st 0A is LISTEN.
  const row = table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((cols) => cols[1] === local && cols[3] === '0A');
  if (!row) return false;
  const socket = `socket:[${row[9]}]`;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === socket;
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}
