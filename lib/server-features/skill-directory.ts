/**
 * A skill read from a directory on disk (Node, Bun, Deno): every regular file under it, by path
 * relative to it. Symbolic links are refused rather than followed, so nothing outside the
 * directory is ever served; the file count is bounded while walking.
 *
 * @see https://modelcontextprotocol.io/extensions/skills
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { MAX_SKILL_FILES } from '../protocol/skills-extension.js';
import { SkillRegistrationError, type SkillSource } from './skills.js';

/** Read the skill in `directory` for `McpServer.registerSkill`; `prefix` goes before its name in its URI. */
export async function readSkillDirectory(directory: string, options: { prefix?: string } = {}): Promise<SkillSource> {
  const root = resolve(directory);
  const files: Record<string, Uint8Array> = {};
  let count = 0;
  async function walk(dir: string, rel: string): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch (e) {
      throw new SkillRegistrationError(dir, `cannot read the directory (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    for (const name of names) {
      const full = join(dir, name);
      const path = rel === '' ? name : `${rel}/${name}`;
      const info = await lstat(full);
      if (info.isSymbolicLink()) throw new SkillRegistrationError(full, 'symbolic links are not served (a skill is served only from inside its directory)');
      if (info.isDirectory()) await walk(full, path);
      else if (info.isFile()) {
        if (++count > MAX_SKILL_FILES) throw new SkillRegistrationError(root, `more than ${MAX_SKILL_FILES} files; a skill may have at most ${MAX_SKILL_FILES} (SKILL.md included)`);
        files[path] = new Uint8Array(await readFile(full));
      }
    }
  }
  await walk(root, '');
  return { files, origin: root, directoryName: basename(root), ...(options.prefix !== undefined && { prefix: options.prefix }) };
}
