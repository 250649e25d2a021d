/**
 * Skills on the client and host side (the `io.modelcontextprotocol/skills` extension): list and
 * get entries (nothing is read ahead of need), and load a skill: its SKILL.md read and checked
 * against the entry (size, digest, frontmatter field by field) before anything of it is used, then
 * each supporting file read when asked for and checked the same way. A file the held entry does
 * not list is refused without asking the server. A mismatch is a {@link SkillVerificationError}
 * and the content is not handed out.
 *
 * @see https://modelcontextprotocol.io/extensions/skills
 */
import { skillDigest } from '../shared/skill-digest.js';
import { base64Decode, utf8Encode } from '../crypto/bytes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILLS_EXTENSION, entryProblem, jsonEqual, parseFrontmatter, skillRoot, type Skill, type SkillResource } from '../protocol/skills-extension.js';

/** Why a skill was not used. */
export type SkillVerificationReason = 'invalid-entry' | 'over-limits' | 'dynamic' | 'size' | 'digest' | 'frontmatter' | 'unlisted' | 'unreadable';

/** A skill, or one of its files, did not match its entry: the content was not used. */
export class SkillVerificationError extends Error {
  override readonly name = 'SkillVerificationError';
  constructor(
    readonly reason: SkillVerificationReason,
    /** The skill's SKILL.md URI. */
    readonly skill: string,
    /** The file concerned (the SKILL.md URI for entry-wide problems). */
    readonly file: string,
    message: string,
  ) {
    super(`${message}. The content was not used; call getSkill(${JSON.stringify(skill)}) for the server's current entry and load it again.`);
  }
}

/** The server did not declare the skills extension. */
export class SkillsNotSupportedError extends Error {
  override readonly name = 'SkillsNotSupportedError';
  constructor() {
    super(`The server does not declare the "${SKILLS_EXTENSION}" extension: it serves no skills`);
  }
}

/** What the skills feature needs of a client. */
export interface SkillsRequester {
  request(method: string, params?: JsonObject): Promise<JsonObject>;
  readonly serverCapabilities: Record<string, unknown> | undefined;
}

/** One verified file of a loaded skill. */
export interface SkillFile {
  uri: string;
  /** The raw bytes the entry's digest covers. */
  bytes: Uint8Array;
  /** The content as text, when the server sent text. */
  text?: string;
  mimeType?: string;
}

/** Limits past which a skill is declined before anything of it is read. */
export interface LoadSkillOptions {
  /** Default 512 (the extension's limit every host accepts). */
  maxFiles?: number;
  /** Default 16 MiB. */
  maxBytes?: number;
  /** Load skills whose `resources` is "dynamic" (no integrity at all); default false. */
  allowDynamic?: boolean;
}

/** A skill loaded through its entry: SKILL.md verified, other files read and verified on demand. */
export class LoadedSkill {
  private retrieved = 0;
  constructor(
    private readonly requester: SkillsRequester,
    /** The entry the skill was loaded from: the files it lists are the only ones readable. */
    readonly entry: Skill,
    /** SKILL.md, verified. */
    readonly skillMd: SkillFile & { text: string },
    private readonly maxBytes: number,
  ) {}

  /** The skill's root directory URI (relative references resolve against it). */
  get root(): string {
    return skillRoot(this.entry.uri);
  }

  /** The files the entry lists, as paths relative to the root ("dynamic" skills list none). */
  get files(): string[] {
    return Array.isArray(this.entry.resources) ? this.entry.resources.map((r) => r.uri.slice(this.root.length + 1)) : [];
  }

  /** Read a file of the skill (a path relative to its root, or its URI), checked against the entry. */
  async read(pathOrUri: string): Promise<SkillFile> {
    const uri = resolveInSkill(this.root, pathOrUri, this.entry.uri);
    const listed = Array.isArray(this.entry.resources) ? this.entry.resources.find((r) => r.uri === uri) : undefined;
    if (Array.isArray(this.entry.resources) && listed === undefined) {
      throw new SkillVerificationError('unlisted', this.entry.uri, uri, `${uri} is not one of the files the skill's entry lists`);
    }
    const file = await fetchFile(this.requester, this.entry.uri, uri);
    if (listed !== undefined) verifyBytes(this.entry.uri, file, listed);
    else {
      this.retrieved += file.bytes.byteLength;
      if (this.retrieved > this.maxBytes) throw new SkillVerificationError('over-limits', this.entry.uri, uri, `the dynamic skill's files pass ${this.maxBytes} bytes`);
    }
    return file;
  }
}

function resolveInSkill(root: string, pathOrUri: string, skill: string): string {
  if (pathOrUri.includes('://')) return pathOrUri;
  const out: string[] = [];
  for (const segment of pathOrUri.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.pop() === undefined) throw new SkillVerificationError('unlisted', skill, pathOrUri, `${pathOrUri} leaves the skill's directory`);
    } else out.push(segment);
  }
  return `${root}/${out.join('/')}`;
}

async function fetchFile(requester: SkillsRequester, skill: string, uri: string): Promise<SkillFile> {
  const result = await requester.request('resources/read', { uri });
  const contents = result['contents'];
  const first = Array.isArray(contents) ? (contents.find((c) => (c as JsonObject)?.['uri'] === uri) ?? contents[0]) : undefined;
  const c = first as { text?: unknown; blob?: unknown; mimeType?: unknown } | undefined;
  if (c !== undefined && typeof c.text === 'string') return { uri, bytes: utf8Encode(c.text), text: c.text, ...(typeof c.mimeType === 'string' && { mimeType: c.mimeType }) };
  if (c !== undefined && typeof c.blob === 'string') return { uri, bytes: base64Decode(c.blob), ...(typeof c.mimeType === 'string' && { mimeType: c.mimeType }) };
  throw new SkillVerificationError('unreadable', skill, uri, `the server's answer for ${uri} holds no text or blob`);
}

function verifyBytes(skill: string, file: SkillFile, listed: SkillResource): void {
  // The size first: a length that differs is a mismatch without hashing anything.
  if (file.bytes.byteLength !== listed.size) throw new SkillVerificationError('size', skill, file.uri, `${file.uri} is ${file.bytes.byteLength} bytes where the entry says ${listed.size}`);
  const digest = skillDigest(file.bytes);
  if (digest !== listed.digest) throw new SkillVerificationError('digest', skill, file.uri, `${file.uri} hashes to ${digest} where the entry says ${listed.digest}`);
}

/** Skills of one server, through a client: `client.skills`. */
export class ClientSkills {
  constructor(private readonly requester: SkillsRequester) {}

  /** Whether the server declared the extension. */
  get supported(): boolean {
    const ext = (this.requester.serverCapabilities?.['extensions'] ?? undefined) as Record<string, unknown> | undefined;
    return ext !== null && typeof ext === 'object' && ext[SKILLS_EXTENSION] !== undefined;
  }

  private check(): void {
    if (!this.supported) throw new SkillsNotSupportedError();
  }

  /** One page of `skills/list`: entries only, no file is read. */
  async list(params: { cursor?: string } = {}): Promise<{ skills: Skill[]; nextCursor?: string }> {
    this.check();
    const result = await this.requester.request('skills/list', params.cursor === undefined ? {} : { cursor: params.cursor });
    const skills = Array.isArray(result['skills']) ? (result['skills'] as unknown as Skill[]) : [];
    const next = result['nextCursor'];
    return { skills, ...(typeof next === 'string' && { nextCursor: next }) };
  }

  /** Every entry, page after page (a cursor seen twice ends the listing). */
  async listAll(): Promise<Skill[]> {
    const all: Skill[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.list(cursor === undefined ? {} : { cursor });
      all.push(...page.skills);
      cursor = page.nextCursor;
      if (cursor !== undefined && seen.has(cursor)) break;
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return all;
  }

  /** The server's current entry for the skill whose SKILL.md is at `uri` (-32602 when it serves none). */
  async get(uri: string): Promise<Skill> {
    this.check();
    const result = await this.requester.request('skills/get', { uri });
    return result['skill'] as unknown as Skill;
  }

  /**
   * Load a skill from its entry (or its SKILL.md URI, confirmed with `skills/get`): the entry is
   * checked (well-formed, within the limits), then SKILL.md is read and verified (size, digest,
   * frontmatter equal to the entry's). Other files are read only through the returned skill.
   */
  async load(entryOrUri: Skill | string, options: LoadSkillOptions = {}): Promise<LoadedSkill> {
    const entry = typeof entryOrUri === 'string' ? await this.get(entryOrUri) : entryOrUri;
    const problem = entryProblem(entry);
    const uri = typeof entry?.uri === 'string' ? entry.uri : String(entryOrUri);
    if (problem !== undefined) throw new SkillVerificationError('invalid-entry', uri, uri, `The skill's entry is invalid: ${problem}`);
    const maxFiles = options.maxFiles ?? MAX_SKILL_FILES;
    const maxBytes = options.maxBytes ?? MAX_SKILL_BYTES;
    if (entry.resources === 'dynamic') {
      if (options.allowDynamic !== true) throw new SkillVerificationError('dynamic', uri, uri, `${uri} is generated ("dynamic"): it has no digests to check (pass allowDynamic to load it anyway)`);
    } else {
      const total = entry.resources.reduce((n, r) => n + r.size, 0);
      if (entry.resources.length > maxFiles || total > maxBytes) {
        throw new SkillVerificationError('over-limits', uri, uri, `${uri} has ${entry.resources.length} files and ${total} bytes; this host loads at most ${maxFiles} files and ${maxBytes} bytes`);
      }
    }
    const file = await fetchFile(this.requester, uri, uri);
    const listed = Array.isArray(entry.resources) ? entry.resources.find((r) => r.uri === uri)! : undefined;
    if (listed !== undefined) verifyBytes(uri, file, listed);
    const text = file.text ?? new TextDecoder().decode(file.bytes);
    let frontmatter: Skill['frontmatter'];
    try {
      frontmatter = parseFrontmatter(text);
    } catch (e) {
      throw new SkillVerificationError('frontmatter', uri, uri, `SKILL.md: ${(e as Error).message}`);
    }
    if (!jsonEqual(frontmatter, entry.frontmatter)) {
      const differing = [...new Set([...Object.keys(frontmatter), ...Object.keys(entry.frontmatter)])].filter((k) => !jsonEqual(frontmatter[k], entry.frontmatter[k]));
      throw new SkillVerificationError('frontmatter', uri, uri, `the frontmatter of ${uri} differs from the entry's in ${differing.map((k) => `"${k}"`).join(', ')}`);
    }
    return new LoadedSkill(this.requester, entry, { ...file, text }, maxBytes);
  }
}
