/**
 * A free TCP port on 127.0.0.1, for real parts that cannot listen on port 0 themselves
 * (redis-server treats `--port 0` as "no TCP", HAProxy needs its ports in its config).
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}
