/**
 * Skills served by a server (the `io.modelcontextprotocol/skills` extension): each skill's files
 * become resources under `skill://<prefix>/<name>/<file>`, read with `resources/read`; the server
 * answers `skills/list`, `skills/get` and `resources/directory/read`. A skill is checked in full
 * when it is registered (frontmatter, naming, paths, limits) and its digests and sizes computed
 * then, so nothing is served half-checked. Works in both eras and on every transport: the methods
 * are ordinary request handlers.
 *
 * @see https://modelcontextprotocol.io/extensions/skills
 */
import { skillDigest } from '../shared/skill-digest.js';
import { utf8Encode } from '../crypto/bytes.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  SKILLS_EXTENSION,
  SKILL_NAME,
  SkillFrontmatterError,
  parseFrontmatter,
  type Skill,
  type SkillResource,
} from '../protocol/skills-extension.js';
import { paginate } from './pagination.js';

/** A skill to publish: its files by path relative to the skill's root (SKILL.md among them). */
export interface SkillSource {
  /** Path (`/`-separated) → content; text is served as UTF-8. */
  files: Record<string, string | Uint8Array>;
  /**
   * Segments before the skill's name in its URI (`acme/billing` gives
   * `skill://acme/billing/refunds/SKILL.md`); none by default.
   */
  prefix?: string;
  /** Where the files came from, for error messages (a directory path, say). */
  origin?: string;
  /** The name of the directory the files came from: the skill's name must equal it (Agent Skills). */
  directoryName?: string;
}

/** A skill that cannot be published, and where: the file or field to fix. */
export class SkillRegistrationError extends Error {
  override readonly name = 'SkillRegistrationError';
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`Cannot register the skill at ${where}: ${problem}`);
  }
}

/** A registered skill: its entry and a way to withdraw it. */
export interface RegisteredSkill {
  readonly entry: Skill;
  remove(): void;
}

/** What the feature needs of the server it serves on (McpServer supplies it). */
export interface SkillsHost {
  declareExtension(settings: JsonObject): void;
  onRequest(method: string, handler: (params: JsonObject | undefined) => JsonObject | Promise<JsonObject>): void;
  registerResource(name: string, uri: string, metadata: { description?: string; mimeType: string; size: number }, read: () => { contents: Array<{ mimeType: string; text: string } | { mimeType: string; blob: Uint8Array }> }): { remove(): void };
}

interface Held {
  entry: Skill;
  /** Every directory of the skill (its root included) → its direct children. */
  dirs: Map<string, Map<string, { uri: string; name: string; mimeType: string; size?: number }>>;
  resources: Array<{ remove(): void }>;
}

const REG_NAME = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;
const MIME: Record<string, string> = {
  md: 'text/markdown', markdown: 'text/markdown', txt: 'text/plain', json: 'application/json', yaml: 'application/yaml', yml: 'application/yaml',
  py: 'text/x-python', js: 'text/javascript', mjs: 'text/javascript', ts: 'text/x-typescript', sh: 'application/x-sh', html: 'text/html', css: 'text/css',
  csv: 'text/csv', xml: 'application/xml', svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', pdf: 'application/pdf',
};
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function mimeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return MIME[ext] ?? 'application/octet-stream';
}

/** The text a file is served as, when its bytes are UTF-8 (the digest covers these exact bytes). */
function textOf(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function checkPath(path: string, where: string): string[] {
  const segments = path.split('/');
  if (path === '' || path.includes('\\') || path.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new SkillRegistrationError(where, `"${path}" is not a path inside the skill ("/"-separated, relative, no "." or ".." segments)`);
  }
  return segments;
}

/** Serves the skills an McpServer publishes. */
export class SkillsFeature {
  private readonly skills = new Map<string, Held>();
  private version = 0;
  private installed = false;

  constructor(
    private readonly host: SkillsHost,
    private readonly options: { pageSize: number; ttlMs?: number; cacheScope?: 'public' | 'private' } = { pageSize: 100 },
  ) {}

  /** Check `source` in full and publish it; throws {@link SkillRegistrationError} saying where. */
  register(source: SkillSource): RegisteredSkill {
    const where = source.origin ?? 'SKILL.md';
    const paths = Object.keys(source.files);
    const skillMd = source.files['SKILL.md'];
    if (skillMd === undefined) throw new SkillRegistrationError(where, 'a skill needs a SKILL.md at its root');
    if (paths.length > MAX_SKILL_FILES) throw new SkillRegistrationError(where, `${paths.length} files; a skill may have at most ${MAX_SKILL_FILES} (SKILL.md included)`);
    const bytes = new Map<string, Uint8Array>();
    let total = 0;
    for (const path of paths) {
      checkPath(path, where);
      const content = source.files[path]!;
      const b = typeof content === 'string' ? utf8Encode(content) : content;
      total += b.byteLength;
      bytes.set(path, b);
    }
    if (total > MAX_SKILL_BYTES) throw new SkillRegistrationError(where, `${total} bytes in all; a skill may have at most ${MAX_SKILL_BYTES} (16 MiB)`);
    const skillText = textOf(bytes.get('SKILL.md')!);
    if (skillText === undefined) throw new SkillRegistrationError(`${where}/SKILL.md`, 'SKILL.md is not UTF-8 text');
    let frontmatter: Skill['frontmatter'];
    try {
      frontmatter = parseFrontmatter(skillText);
    } catch (e) {
      if (e instanceof SkillFrontmatterError) throw new SkillRegistrationError(`${where}/SKILL.md`, e.message);
      throw e;
    }
    if (!SKILL_NAME.test(frontmatter.name)) {
      throw new SkillRegistrationError(`${where}/SKILL.md`, `the name "${frontmatter.name}" breaks the naming rules: 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen`);
    }
    if (source.directoryName !== undefined && source.directoryName !== frontmatter.name) {
      throw new SkillRegistrationError(`${where}/SKILL.md`, `the name "${frontmatter.name}" must equal the skill's directory name "${source.directoryName}"`);
    }
    // Metadata keys under io.modelcontextprotocol/ are for MCP extensions; this server knows none and
    // ignores them (a skill written for a later extension is served as is, its frontmatter verbatim).
    const prefix = source.prefix ?? '';
    const prefixSegments = prefix === '' ? [] : checkPath(prefix, where);
    const authority = prefixSegments[0] ?? frontmatter.name;
    if (!REG_NAME.test(authority)) throw new SkillRegistrationError(where, `the first segment "${authority}" of the skill's path must be a lowercase host-like name`);
    // The other segments are URI path segments: a "?" or "#" would end the path, cutting the skill's URI short.
    const cut = prefixSegments.find((s) => /[?#]/.test(s));
    if (cut !== undefined) throw new SkillRegistrationError(where, `the segment "${cut}" of the skill's path is not a URI path segment ("?" and "#" end a path)`);
    const root = `skill://${[...prefixSegments, frontmatter.name].join('/')}`;
    const uri = `${root}/SKILL.md`;
    if (this.skills.has(uri)) throw new SkillRegistrationError(where, `a skill is already registered at ${uri}`);

    const resources: SkillResource[] = [];
    const held: Held = { entry: { uri, frontmatter, resources }, dirs: new Map([[root, new Map()]]), resources: [] };
    // SKILL.md first: its entry, then the rest in path order.
    for (const path of ['SKILL.md', ...paths.filter((p) => p !== 'SKILL.md').sort()]) {
      const b = bytes.get(path)!;
      const fileUri = `${root}/${path}`;
      resources.push({ uri: fileUri, digest: skillDigest(b), size: b.byteLength });
      const mimeType = path === 'SKILL.md' ? 'text/markdown' : mimeOf(path);
      // Each directory on the way knows its children (for resources/directory/read).
      const segments = path.split('/');
      let dir = root;
      for (let i = 0; i < segments.length - 1; i++) {
        const child = `${dir}/${segments[i]}`;
        if (!held.dirs.has(child)) {
          held.dirs.set(child, new Map());
          held.dirs.get(dir)!.set(child, { uri: child, name: segments[i]!, mimeType: 'inode/directory' });
        }
        dir = child;
      }
      const name = path === 'SKILL.md' ? frontmatter.name : segments[segments.length - 1]!;
      held.dirs.get(dir)!.set(fileUri, { uri: fileUri, name, mimeType, size: b.byteLength });
    }
    this.install();
    try {
      for (const path of ['SKILL.md', ...paths.filter((p) => p !== 'SKILL.md').sort()]) {
        const b = bytes.get(path)!;
        const fileUri = `${root}/${path}`;
        const mimeType = path === 'SKILL.md' ? 'text/markdown' : mimeOf(path);
        const text = mimeType.startsWith('image/') || mimeType === 'application/pdf' || mimeType === 'application/octet-stream' ? undefined : textOf(b);
        const content = text !== undefined ? { mimeType, text } : { mimeType, blob: b };
        const meta = path === 'SKILL.md' ? { description: frontmatter.description, mimeType, size: b.byteLength } : { mimeType, size: b.byteLength };
        held.resources.push(this.host.registerResource(path === 'SKILL.md' ? frontmatter.name : path, fileUri, meta, () => ({ contents: [content] })));
      }
    } catch (e) {
      for (const r of held.resources) r.remove();
      throw new SkillRegistrationError(where, (e as Error).message);
    }
    this.skills.set(uri, held);
    this.version++;
    return {
      entry: held.entry,
      remove: () => {
        if (this.skills.get(uri) !== held) return;
        this.skills.delete(uri);
        this.version++;
        for (const r of held.resources) r.remove();
      },
    };
  }

  /** Declare the extension and serve its methods, once, when the first skill is registered. */
  private install(): void {
    if (this.installed) return;
    this.installed = true;
    this.host.declareExtension({ directoryRead: true });
    const cache = () => ({ ttlMs: this.options.ttlMs ?? 0, cacheScope: this.options.cacheScope ?? 'private' });
    this.host.onRequest('skills/list', (params) => {
      const page = paginate('skills', [...this.skills.values()], (h) => h.entry.uri, params?.['cursor'], this.options.pageSize, this.version);
      return { skills: page.items.map((h) => h.entry), ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }), ...cache() } as unknown as JsonObject;
    });
    this.host.onRequest('skills/get', (params) => {
      const uri = params?.['uri'];
      if (typeof uri !== 'string') throw new McpError(ErrorCode.InvalidParams, 'skills/get needs params.uri, the URI of a skill\'s SKILL.md');
      const held = this.skills.get(uri);
      if (held === undefined) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${uri}`, { uri });
      return { skill: held.entry, ...cache() } as unknown as JsonObject;
    });
    this.host.onRequest('resources/directory/read', (params) => {
      const uri = params?.['uri'];
      if (typeof uri !== 'string') throw new McpError(ErrorCode.InvalidParams, 'resources/directory/read needs params.uri, the URI of a directory');
      const children = this.directory(uri);
      const page = paginate(`dir:${uri}`, [...children.values()], (c) => c.uri, params?.['cursor'], this.options.pageSize, this.version);
      return { resources: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) } as unknown as JsonObject;
    });
  }

  private directory(uri: string): Map<string, { uri: string; name: string; mimeType: string }> {
    for (const held of this.skills.values()) {
      const children = held.dirs.get(uri);
      if (children !== undefined) return children;
    }
    const isFile = [...this.skills.values()].some((h) => Array.isArray(h.entry.resources) && h.entry.resources.some((r) => r.uri === uri));
    throw new McpError(ErrorCode.InvalidParams, isFile ? `${uri} is not a directory resource` : `No directory is served at ${uri}`, { uri });
  }

  /** The entries of every registered skill. */
  get entries(): Skill[] {
    return [...this.skills.values()].map((h) => h.entry);
  }
}

/** The extension's key, for capability checks elsewhere. */
export { SKILLS_EXTENSION };
