/**
 * Whether a given process holds a loopback listener: for a child whose own word cannot be
 * trusted on it (one that says it listens even when its bind failed), or whose port another
 * process may hold (a connect would reach that one).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Whether process `pid` holds the socket listening on 127.0.0.1:`port` (Linux: /proc/net/tcp and
 * the process's descriptors). Undefined where /proc cannot tell.
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
