/**
 * A registry of named entries (tools, prompts, …) as immutable state: every change produces a
 * new state with immer and goes out on `state$`. What clients see of it (`listed$`, the enabled
 * entries in registration order) is derived from that stream, and so is the `list_changed`
 * notification (see `list-changed.ts`): nobody sends it by hand.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 */
import { enableMapSet, produce, type Draft } from 'immer';
import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';

enableMapSet();

/** What every registry entry has. */
export interface RegistryEntry {
  readonly name: string;
  /** Disabled entries are kept but neither listed nor callable. */
  readonly enabled: boolean;
}

/** One immutable state of a registry. */
export interface RegistryState<T extends RegistryEntry> {
  /** Bumped on every change; cursors carry it. */
  readonly version: number;
  /** Entries by name, in registration order. */
  readonly entries: ReadonlyMap<string, T>;
}

export class Registry<T extends RegistryEntry> {
  private readonly subject: BehaviorSubject<RegistryState<T>>;
  /** The current state on subscribe, then every change. */
  readonly state$: Observable<RegistryState<T>>;
  /**
   * The enabled entries in order, emitted only when that list changes (an entry replaced by
   * an update counts as a change: its description or schema may differ).
   */
  readonly listed$: Observable<readonly T[]>;

  constructor(
    /** What the entries are, for error messages ("tool", "prompt"). */
    readonly kind: string,
  ) {
    this.subject = new BehaviorSubject<RegistryState<T>>({ version: 0, entries: new Map() });
    this.state$ = this.subject.asObservable();
    this.listed$ = this.state$.pipe(map(listed), distinctUntilChanged(sameEntries));
  }

  get state(): RegistryState<T> {
    return this.subject.value;
  }

  get(name: string): T | undefined {
    return this.subject.value.entries.get(name);
  }

  /** The enabled entries, in registration order. */
  listed(): T[] {
    return listed(this.subject.value);
  }

  /** Add an entry; a second entry of the same name is refused. */
  add(entry: T): void {
    if (this.subject.value.entries.has(entry.name)) {
      throw new Error(`A ${this.kind} named "${entry.name}" is already registered; remove it first or update it through its handle`);
    }
    this.change((d) => {
      d.entries.set(entry.name, entry as Draft<T>);
    });
  }

  /**
   * Replace the entry `name` with what `update` makes of it. A new name keeps the entry's
   * place in the order.
   */
  replace(name: string, update: (current: T) => T): void {
    const current = this.subject.value.entries.get(name);
    if (!current) throw new Error(`No ${this.kind} named "${name}" is registered (was it removed?)`);
    const next = update(current);
    if (next.name !== name && this.subject.value.entries.has(next.name)) {
      throw new Error(`Cannot rename ${this.kind} "${name}" to "${next.name}": that name is taken`);
    }
    this.change((d) => {
      if (next.name === name) {
        d.entries.set(name, next as Draft<T>);
        return;
      }
      const rebuilt = new Map<string, Draft<T>>();
      for (const [k, v] of d.entries) rebuilt.set(k === name ? next.name : k, k === name ? (next as Draft<T>) : v);
      d.entries = rebuilt as Draft<RegistryState<T>>['entries'];
    });
  }

  /** Remove the entry `name`; false when there was none. */
  remove(name: string): boolean {
    if (!this.subject.value.entries.has(name)) return false;
    this.change((d) => {
      d.entries.delete(name);
    });
    return true;
  }

  /** Stop emitting (the server closed). */
  complete(): void {
    this.subject.complete();
  }

  private change(recipe: (draft: Draft<RegistryState<T>>) => void): void {
    this.subject.next(
      produce(this.subject.value, (d) => {
        recipe(d);
        d.version += 1;
      }),
    );
  }
}

function listed<T extends RegistryEntry>(state: RegistryState<T>): T[] {
  const out: T[] = [];
  for (const e of state.entries.values()) if (e.enabled) out.push(e);
  return out;
}

function sameEntries<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
