import { createRankedRollupsCaches, rankedRollups, type RankedRollupsInput } from '../stats/ranked-rollups';
import type { DatabaseReader } from './database-reader';

/**
 * Reads whose rows are many but whose answer is small, run whole where the rows are read: on the
 * reader's thread with SQLite, so only the answer crosses to the event loop; beside the pool with
 * PostgreSQL. One set per reader (per thread with SQLite), each with its own caches.
 */
export function createReaderTasks() {
  const caches = createRankedRollupsCaches();
  return {
    rankedRollups: (reader: DatabaseReader, input: RankedRollupsInput) => rankedRollups(reader, caches, input),
  };
}

export type ReaderTasks = ReturnType<typeof createReaderTasks>;
export type ReaderTaskName = keyof ReaderTasks;
export type ReaderTaskInput<Name extends ReaderTaskName> = Parameters<ReaderTasks[Name]>[1];
export type ReaderTaskResult<Name extends ReaderTaskName> = Awaited<ReturnType<ReaderTasks[Name]>>;

/** Runs one of the tasks (the lookup by name loses the link between a task's input and its result). */
export function runReaderTask<Name extends ReaderTaskName>(
  tasks: ReaderTasks,
  reader: DatabaseReader,
  name: Name,
  input: ReaderTaskInput<Name>,
): Promise<ReaderTaskResult<Name>> {
  const task = tasks[name] as (reader: DatabaseReader, input: ReaderTaskInput<Name>) => Promise<ReaderTaskResult<Name>>;
  return task(reader, input);
}
