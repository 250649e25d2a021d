/**
 * Ports for real parts that cannot listen on port 0 themselves (redis-server treats `--port 0`
 * as "no TCP", HAProxy needs its ports in its config), and starting them robustly.
 *
 * A port found free (listen on 0, read, close) can be taken by anything else on the machine
 * (the other mocha worker, a child it spawned) before our child binds it. Whatever can listen on
 * port 0 and report its port should do that instead; for the rest, {@link startOnFreePorts}
 * treats a failed bind as a lost race: it picks new ports and starts again, so a stolen port
 * costs a retry, not a red run.
 */
import { createServer, type Server } from 'node:net';

/** Thrown (or recognized) when a start failed because its port was taken. */
export class PortTaken extends Error {
  constructor(
    readonly port: number,
    detail = '',
    /** The port was asked for (a restart on the same address), not picked: it is not retried elsewhere. */
    readonly given = false,
  ) {
    super(
      given
        ? `port ${port} was asked for but is taken by another process${detail ? `: ${detail}` : ''}`
        : `port ${port} was taken before the start could bind it${detail ? `: ${detail}` : ''}`,
    );
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

/** A free TCP port on 127.0.0.1 (for a URL that nothing listens on, such as a redirect a test reads). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

export interface StartOnFreePortsOptions {
  /** How many starts at most (default 5). */
  tries?: number;
  /** Picks the ports of each try (default {@link freePorts}); a spec injects one to steal a port. */
  pick?: (count: number) => Promise<number[]>;
}

/**
 * Start something on `count` free ports; when the start fails because a port was taken
 * ({@link isPortTaken}), pick new ports and start again, at most `tries` times. Any other
 * failure is thrown at once. The start must clean up after itself when it throws.
 */
export async function startOnFreePorts<T>(count: number, start: (ports: number[]) => Promise<T>, options: StartOnFreePortsOptions = {}): Promise<T> {
  const tries = options.tries ?? 5;
  const pick = options.pick ?? freePorts;
  const lost: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const ports = await pick(count);
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
export function startOnFreePort<T>(start: (port: number) => Promise<T>, options: StartOnFreePortsOptions = {}): Promise<T> {
  return startOnFreePorts(1, ([port]) => start(port!), options);
}
