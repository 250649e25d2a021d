/**
 * Storage for the authorization server's records (codes, sessions, grants, tokens, registered
 * clients, interactions) in this process's memory, each forgotten at its expiry. Give the server
 * an adapter of your own to keep them across restarts or share them between processes.
 */

type Payload = Record<string, unknown> & { uid?: string; userCode?: string; grantId?: string; consumed?: number };

/** The adapter class oidc-provider constructs per model name. */
export function memoryAdapter(now: () => number = Date.now): new (name: string) => object {
  const store = new Map<string, { payload: Payload; expiresAt: number | undefined }>();
  const grants = new Map<string, Set<string>>();
  const get = (key: string): Payload | undefined => {
    const entry = store.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return class MemoryAdapter {
    constructor(private readonly name: string) {}
    private key(id: string): string {
      return `${this.name}:${id}`;
    }
    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const key = this.key(id);
      store.set(key, { payload: { ...payload }, expiresAt: expiresIn ? now() + expiresIn * 1000 : undefined });
      if (payload.grantId !== undefined) {
        const set = grants.get(payload.grantId) ?? new Set<string>();
        set.add(key);
        grants.set(payload.grantId, set);
      }
      if (payload.uid !== undefined) store.set(`${this.name}:uid:${payload.uid}`, { payload: { id } as Payload, expiresAt: expiresIn ? now() + expiresIn * 1000 : undefined });
      if (payload.userCode !== undefined) store.set(`${this.name}:userCode:${payload.userCode}`, { payload: { id } as Payload, expiresAt: expiresIn ? now() + expiresIn * 1000 : undefined });
    }
    async find(id: string): Promise<Payload | undefined> {
      return get(this.key(id));
    }
    async findByUid(uid: string): Promise<Payload | undefined> {
      const ref = get(`${this.name}:uid:${uid}`);
      return ref === undefined ? undefined : get(this.key(String(ref['id'])));
    }
    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      const ref = get(`${this.name}:userCode:${userCode}`);
      return ref === undefined ? undefined : get(this.key(String(ref['id'])));
    }
    async consume(id: string): Promise<void> {
      const payload = get(this.key(id));
      if (payload !== undefined) payload.consumed = Math.floor(now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const key of grants.get(grantId) ?? []) store.delete(key);
      grants.delete(grantId);
    }
  };
}
