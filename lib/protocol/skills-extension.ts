/**
 * The Skills extension (`io.modelcontextprotocol/skills`): its wire types and the rules both sides
 * hold a skill to (naming, URIs, limits, digests, frontmatter). The server publishes skills with
 * these; the client verifies what it reads against them.
 *
 * @see https://modelcontextprotocol.io/extensions/skills
 */
import { parse as parseYaml } from 'yaml';

/** The extension's identifier (its key under `capabilities.extensions`). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** A file of a skill with the digest and size of its raw bytes. */
export interface SkillResource {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits. */
  digest: string;
  size: number;
}

/** The entry for one skill, as `skills/list` and `skills/get` return it. */
export interface Skill {
  /** The URI of the skill's SKILL.md. */
  uri: string;
  /** The SKILL.md frontmatter, verbatim. */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** Every file of the skill (SKILL.md included), or "dynamic" when digests cannot be published. */
  resources: SkillResource[] | 'dynamic';
}

/** Resources per skill that every host must accept (SKILL.md included). */
export const MAX_SKILL_FILES = 512;
/** Total bytes per skill that every host must accept. */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** The Agent Skills naming rule: lowercase letters, digits and single hyphens, 1-64 long, no hyphen at either end. */
export const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;


/** Why a frontmatter block could not be read (the message says what to fix). */
export class SkillFrontmatterError extends Error {
  override readonly name = 'SkillFrontmatterError';
}

/**
 * The YAML frontmatter a SKILL.md opens with, as a JSON object; throws
 * {@link SkillFrontmatterError} when there is none, it is not a mapping, or it lacks a non-empty
 * `name` and `description`.
 */
export function parseFrontmatter(text: string): Skill['frontmatter'] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(body);
  if (open === null) throw new SkillFrontmatterError('SKILL.md must begin with a YAML frontmatter block opened by a line "---"');
  const rest = body.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (close === null) throw new SkillFrontmatterError('the frontmatter block of SKILL.md is not closed by a line "---"');
  let value: unknown;
  try {
    // JSON-compatible values only: dates stay strings, so the entry's frontmatter is the file's.
    value = parseYaml(rest.slice(0, close.index), { schema: 'core', maxAliasCount: 100, uniqueKeys: true });
  } catch (e) {
    throw new SkillFrontmatterError(`the frontmatter of SKILL.md is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new SkillFrontmatterError('the frontmatter of SKILL.md must be a YAML mapping');
  const fm = value as Record<string, unknown>;
  for (const field of ['name', 'description'] as const) {
    if (typeof fm[field] !== 'string' || (fm[field] as string).trim() === '') throw new SkillFrontmatterError(`the frontmatter of SKILL.md needs a non-empty string "${field}"`);
  }
  return fm as Skill['frontmatter'];
}

/** Deep equality of JSON values (frontmatter against frontmatter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The skill's root directory URI: its SKILL.md URI without `/SKILL.md`. */
export function skillRoot(uri: string): string {
  return uri.endsWith('/SKILL.md') ? uri.slice(0, -'/SKILL.md'.length) : uri;
}

/**
 * What is wrong with an entry as a host receives it, or undefined when it is well-formed: a URI
 * ending in `/SKILL.md` whose last path segment is the frontmatter's name, `resources` an array
 * (complete: SKILL.md listed, no URI twice, every URI inside the skill, digests and sizes well
 * formed) or "dynamic".
 */
export function entryProblem(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== 'object') return 'the entry is not an object';
  const e = entry as Partial<Skill>;
  if (typeof e.uri !== 'string' || !e.uri.endsWith('/SKILL.md')) return 'its uri does not name a SKILL.md';
  const fm = e.frontmatter;
  if (fm === null || typeof fm !== 'object' || typeof fm.name !== 'string' || typeof fm.description !== 'string') return 'its frontmatter lacks a name or a description';
  const root = skillRoot(e.uri);
  if (root.slice(root.lastIndexOf('/') + 1) !== fm.name) return `the last segment of ${e.uri} is not the skill's name "${fm.name}"`;
  if (e.resources === 'dynamic') return undefined;
  if (!Array.isArray(e.resources)) return 'its resources are neither a list nor "dynamic"';
  const seen = new Set<string>();
  for (const r of e.resources as unknown[]) {
    const f = r as Partial<SkillResource> | null;
    if (f === null || typeof f !== 'object' || typeof f.uri !== 'string') return 'a resource has no uri';
    if (seen.has(f.uri)) return `${f.uri} is listed twice`;
    seen.add(f.uri);
    if (f.uri !== e.uri && !f.uri.startsWith(`${root}/`)) return `${f.uri} is outside the skill`;
    if (typeof f.digest !== 'string' || !DIGEST.test(f.digest)) return `${f.uri} has no sha256 digest`;
    if (typeof f.size !== 'number' || !Number.isSafeInteger(f.size) || f.size < 0) return `${f.uri} has no size`;
  }
  if (!seen.has(e.uri)) return 'its resources do not list SKILL.md';
  return undefined;
}
