/**
 * Where a client writes down the tasks it started and has not seen end, so that after a crash or
 * a restart it can pick them up again (`client.unfinishedTasks()`, then `client.task(id)`)
 * instead of losing their results. An entry is added when a server answers with a task and
 * removed once the client sees the task terminal (its result, its failure, its cancellation).
 *
 * @see https://modelcontextprotocol.io/extensions/tasks#task-polling
 */

/** A task the client started. */
export interface TaskJournalEntry {
  taskId: string;
  /** The request that became the task (`tools/call`). */
  method: string;
  /** The tool's name. */
  name?: string;
  /** When the client learnt of it (ms since the epoch, on the client's clock). */
  createdAt: number;
}

/**
 * The store of unfinished tasks. Keep one per server (task ids are the server's). A failing
 * journal never fails a call: the client reports it on `warnings$` (`task-journal`).
 */
export interface TaskJournal {
  add(entry: TaskJournalEntry): void | Promise<void>;
  remove(taskId: string): void | Promise<void>;
  entries(): readonly TaskJournalEntry[] | Promise<readonly TaskJournalEntry[]>;
}

/** A journal in memory (for tests, or to share between clients of one process). */
export function memoryTaskJournal(): TaskJournal {
  const entries = new Map<string, TaskJournalEntry>();
  return {
    add: (e) => void entries.set(e.taskId, { ...e }),
    remove: (id) => void entries.delete(id),
    entries: () => [...entries.values()].map((e) => ({ ...e })),
  };
}
