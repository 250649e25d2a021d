/**
 * The roots a client exposes: a list or an observable of lists, checked before they are handed
 * out; the answer to `roots/list` (each root verified when a verifier is set); a change reported
 * once the connection operates (`notifications/roots/list_changed`, legacy era only).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots
 */
import { isObservable, type Observable, type Subscription } from 'rxjs';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Root } from '../protocol/schema/index.js';
import { checkRoots, rootIsAccessible, sameRoots, type RootVerifier, type SetRootsOptions } from './roots.js';

export interface RootsProviderDeps {
  /** The roots changed: tell the server if it can be told. */
  changed(): void;
  warn(kind: 'invalid-roots' | 'inaccessible-root', message: string, detail: unknown): void;
}

export class RootsProvider {
  private roots: Root[] = [];
  private subscription: Subscription | undefined;
  private verifier: RootVerifier | undefined;

  constructor(private readonly deps: RootsProviderDeps) {}

  get current(): readonly Root[] {
    return this.roots;
  }

  /** Expose `roots` (an invalid list throws; an invalid one from an observable is skipped and reported). */
  set(roots: readonly Root[] | Observable<readonly Root[]>, options: SetRootsOptions): void {
    this.verifier = options.verify === true ? rootIsAccessible : options.verify || undefined;
    if (!isObservable(roots)) {
      const problem = checkRoots(roots);
      if (problem) throw new TypeError(`Invalid roots: ${problem}`);
    }
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    if (!isObservable(roots)) return this.update(roots);
    this.subscription = roots.subscribe({
      next: (list) => {
        const problem = checkRoots(list);
        if (problem) this.deps.warn('invalid-roots', `Ignored an invalid roots list: ${problem}`, list);
        else this.update(list);
      },
    });
  }

  /** The `roots/list` answer: copies, less the roots the verifier refuses now. */
  async answer(): Promise<JsonObject> {
    const roots = this.roots.map((r) => ({ ...r }));
    const verify = this.verifier;
    if (!verify) return { roots };
    const ok = await Promise.all(roots.map((r) => verify(r)));
    for (let i = 0; i < roots.length; i++) {
      if (ok[i] !== true) this.deps.warn('inaccessible-root', `Left out root ${roots[i]!.uri}: it is not accessible`, roots[i]);
    }
    return { roots: roots.filter((_r, i) => ok[i] === true) };
  }

  close(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  private update(list: readonly Root[]): void {
    const previous = this.roots;
    this.roots = list.map((r) => ({ ...r }));
    if (!sameRoots(previous, this.roots)) this.deps.changed();
  }
}
