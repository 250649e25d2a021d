/**
 * A {@link TaskJournal} in a JSON file (node): survives a crash or restart of the client. Writes
 * are atomic (a temporary file renamed over the journal) and made one at a time; the file is
 * readable by its owner only, since a task id may be all it takes to read a task's result.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { randomHex } from '../crypto/random.js';
import type { TaskJournal, TaskJournalEntry } from './task-journal.js';

interface JournalFile {
  version: 1;
  tasks: TaskJournalEntry[];
}

/**
 * A journal kept in `path` (created on the first task). A file that is not a journal is never
 * overwritten: every operation fails with an error naming it.
 */
export function fileTaskJournal(path: string): TaskJournal {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op, op);
    queue = next.catch(() => undefined);
    return next;
  };
  const read = async (): Promise<TaskJournalEntry[]> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    let doc: Partial<JournalFile>;
    try {
      doc = JSON.parse(text) as Partial<JournalFile>;
    } catch {
      throw new Error(`${path} is not a task journal (not JSON); move it away or choose another path`);
    }
    if (doc === null || typeof doc !== 'object' || doc.version !== 1 || !Array.isArray(doc.tasks)) {
      throw new Error(`${path} is not a task journal (expected {"version":1,"tasks":[...]}); move it away or choose another path`);
    }
    return doc.tasks.filter((t): t is TaskJournalEntry => t !== null && typeof t === 'object' && typeof t.taskId === 'string');
  };
  const write = async (tasks: TaskJournalEntry[]): Promise<void> => {
    const tmp = `${path}.${randomHex(6)}.tmp`;
    await writeFile(tmp, JSON.stringify({ version: 1, tasks } satisfies JournalFile), { mode: 0o600 });
    await rename(tmp, path);
  };
  return {
    add: (entry) =>
      serial(async () => {
        const tasks = (await read()).filter((t) => t.taskId !== entry.taskId);
        await write([...tasks, { ...entry }]);
      }),
    remove: (taskId) =>
      serial(async () => {
        const tasks = await read();
        const kept = tasks.filter((t) => t.taskId !== taskId);
        if (kept.length !== tasks.length) await write(kept);
      }),
    entries: () => serial(read),
  };
}
