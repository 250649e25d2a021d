/**
 * Who may sign in at the authorization server: a pluggable account store, and an in-memory one
 * with scrypt-hashed passwords (compared in constant time) for demos and tests.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** An account as the authorization server knows it: its subject (`sub`) and extra claims. */
export interface Account {
  id: string;
  claims?: Record<string, unknown>;
}

/** Your user directory: check a login, and find an account by its id. */
export interface AccountStore {
  /** The account for these credentials, or undefined. */
  authenticate(username: string, password: string): Promise<Account | undefined> | Account | undefined;
  /** The account with this id, or undefined. */
  find(id: string): Promise<Account | undefined> | Account | undefined;
}

/** Accounts held in memory: `{ username: password }` (the passwords are hashed at once). */
export function memoryAccounts(users: Record<string, string>): AccountStore {
  const hashed = new Map<string, { salt: Buffer; hash: Buffer }>();
  for (const [name, password] of Object.entries(users)) {
    const salt = randomBytes(16);
    hashed.set(name, { salt, hash: scryptSync(password, salt, 32) });
  }
  // A name that does not exist costs the same as a wrong password.
  const dummy = { salt: randomBytes(16), hash: randomBytes(32) };
  return {
    authenticate(username, password) {
      const entry = hashed.get(username);
      const { salt, hash } = entry ?? dummy;
      const ok = timingSafeEqual(scryptSync(password, salt, 32), hash);
      return ok && entry !== undefined ? { id: username } : undefined;
    },
    find(id) {
      return hashed.has(id) ? { id } : undefined;
    },
  };
}
