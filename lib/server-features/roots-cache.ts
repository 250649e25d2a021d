/**
 * The client's roots as a server uses them: listed once per session and cached, listed again
 * after `notifications/roots/list_changed`, forgotten when the session ends; paths checked
 * against them before a tool touches the file system. A client without roots, or whose
 * `roots/list` fails, has no roots: every path is outside.
 *
 * ```ts
 * const roots = trackRoots(mcp.server);
 * mcp.registerTool('read', { inputSchema: ... }, async ({ path }, ctx) => readFile(await roots.check(ctx.session, path)));
 * ```
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#security-considerations
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#implementation-guidelines
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { hasCapability } from '../protocol/methods.js';
import type { Root } from '../protocol/schema/roots.js';
import type { Server } from '../server.js';
import type { Session } from '../session/session.js';
import { listRoots, onRootsChanged } from './client-calls.js';

/** The roots of one session as last known. */
export interface KnownRoots {
  roots: readonly Root[];
  /** False when the client has no roots capability or the last `roots/list` failed. */
  available: boolean;
  /** Why they are unavailable. */
  reason?: string;
}

/**
 * A path outside every root of the client (or the client has none). A tool may turn it into an
 * `isError` result; from a request handler it answers -32602.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#security-considerations
 */
export class OutsideRootsError extends McpError {
  override readonly name = 'OutsideRootsError';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(ErrorCode.InvalidParams, `${JSON.stringify(path.slice(0, 512))} is outside the roots the client exposed (${reason}); only paths under a root may be used.`, { path });
  }
}

/** The absolute, normalised file-system path of a path or `file://` URI, or undefined if it is neither. */
export function toFsPath(pathOrUri: string): string | undefined {
  if (typeof pathOrUri !== 'string' || pathOrUri === '' || pathOrUri.includes('\0')) return undefined;
  if (pathOrUri.startsWith('file:')) {
    try {
      return resolve(fileURLToPath(pathOrUri));
    } catch {
      return undefined;
    }
  }
  return isAbsolute(pathOrUri) ? resolve(pathOrUri) : undefined;
}

/**
 * The root `pathOrUri` lies under (the root itself included), if any; `..` cannot climb out.
 * Lexical: symbolic links are not followed (the tracker's `check` and `isWithinRoots` do).
 */
export function rootContaining(roots: readonly Root[], pathOrUri: string): Root | undefined {
  const target = toFsPath(pathOrUri);
  if (target === undefined) return undefined;
  return roots.find((root) => {
    const base = toFsPath(root.uri);
    if (base === undefined) return false;
    const rel = relative(base, target);
    return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
  });
}

/**
 * `path` with its symbolic links resolved as far as it exists: a path not there yet (a file to
 * be written) keeps its missing tail under its deepest existing ancestor, resolved. Undefined
 * when it cannot be resolved (a link loop, no permission).
 */
export async function realPathOf(path: string): Promise<string | undefined> {
  let head = path;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(await realpath(head), ...tail);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
      const parent = dirname(head);
      if (parent === head) return path;
      tail.unshift(basename(head));
      head = parent;
    }
  }
}

/** The root `target` (an absolute path) lies under once links are followed, on both sides. */
async function realRootContaining(roots: readonly Root[], target: string): Promise<Root | undefined> {
  const real = await realPathOf(target);
  if (real === undefined) return undefined;
  for (const root of roots) {
    const base = toFsPath(root.uri);
    const realBase = base === undefined ? undefined : await realPathOf(base);
    if (realBase !== undefined && rootContaining([{ uri: realBase }], real) !== undefined) return root;
  }
  return undefined;
}

interface Entry {
  known?: KnownRoots;
  inflight?: Promise<KnownRoots>;
  /** Bumped by each list_changed, so a listing that raced a change is not kept. */
  generation: number;
}

/** Cached roots of every session of one server. */
export class RootsTracker {
  private readonly entries = new WeakMap<Session, Entry>();
  private readonly removeListener: () => void;

  constructor(server: Server) {
    this.removeListener = onRootsChanged(server, (session) => this.invalidate(session));
  }

  /**
   * The session's roots: cached; listed (`roots/list`) on first use and after each change
   * notification. Never rejects: a client without roots, or a failed listing, is
   * `available: false` with no roots (the failure is not cached).
   */
  get(session: Session): Promise<KnownRoots> {
    const entry = this.entryOf(session);
    if (entry.known) return Promise.resolve(entry.known);
    if (entry.inflight) return entry.inflight;
    if (!hasCapability(session.peerCapabilities, ['roots'])) {
      return Promise.resolve({ roots: [], available: false, reason: 'the client has no roots capability' });
    }
    const generation = entry.generation;
    const p = listRoots(session).then(
      (r): KnownRoots => {
        const known: KnownRoots = { roots: r.roots, available: true };
        if (entry.generation === generation) entry.known = known;
        return known;
      },
      (e: unknown): KnownRoots => ({ roots: [], available: false, reason: `roots/list failed: ${(e as Error)?.message ?? String(e)}` }),
    );
    entry.inflight = p;
    void p.finally(() => {
      if (entry.inflight === p) entry.inflight = undefined;
    });
    return p;
  }

  /**
   * Whether `pathOrUri` (absolute path or `file://` URI) lies under one of the session's roots,
   * as written and with symbolic links followed.
   */
  async isWithinRoots(session: Session, pathOrUri: string): Promise<boolean> {
    const { roots } = await this.get(session);
    const target = toFsPath(pathOrUri);
    return target !== undefined && rootContaining(roots, target) !== undefined && (await realRootContaining(roots, target)) !== undefined;
  }

  /**
   * The normalised absolute path of `pathOrUri` if it lies under one of the session's roots, as
   * written (`..`, `%2e%2e` cannot climb out) and with symbolic links followed (a link inside a
   * root to a file outside it is outside); otherwise throws {@link OutsideRootsError} (also
   * when the roots are unavailable). A link changed between this check and the use of the path
   * is not caught: on a tree others can write to, open the file without following links.
   */
  async check(session: Session, pathOrUri: string): Promise<string> {
    const known = await this.get(session);
    if (!known.available) throw new OutsideRootsError(pathOrUri, known.reason ?? 'no roots');
    const target = toFsPath(pathOrUri);
    if (target === undefined) throw new OutsideRootsError(String(pathOrUri), 'not an absolute path or file:// URI');
    if (!rootContaining(known.roots, target)) throw new OutsideRootsError(pathOrUri, 'under no root');
    if ((await realRootContaining(known.roots, target)) === undefined) throw new OutsideRootsError(pathOrUri, 'a symbolic link leads out of its root, or the path cannot be resolved');
    return target;
  }

  /** Forget the session's roots (done on each `notifications/roots/list_changed`). */
  invalidate(session: Session): void {
    const entry = this.entryOf(session);
    entry.generation++;
    entry.known = undefined;
    entry.inflight = undefined;
  }

  /** Stop following list changes. */
  close(): void {
    this.removeListener();
  }

  private entryOf(session: Session): Entry {
    let entry = this.entries.get(session);
    if (!entry) this.entries.set(session, (entry = { generation: 0 }));
    return entry;
  }
}

/** Track the roots of every session of `server` (see {@link RootsTracker}). */
export function trackRoots(server: Server): RootsTracker {
  return new RootsTracker(server);
}
