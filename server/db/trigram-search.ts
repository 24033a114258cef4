import { type RawBuilder, sql } from 'kysely';
import type { DatabaseReader } from './database-reader';

// Substring searches through the trigram indexes of migration 0015: FTS5 tables on SQLite, pg_trgm's
// GIN indexes on PostgreSQL. PostgreSQL's LIKE and ILIKE use the GIN indexes by themselves, its
// planner weighing them against walking a list's own order; SQLite's FTS5 tables are asked
// explicitly, and whether to ask them is decided here.

/** FTS5 tables (migrations 0015, 0019) and the columns each indexes. */
export interface FtsTables {
  urls_search: 'title_search' | 'original_url';
  users_search: 'email' | 'name' | 'name_search';
}

/** A trigram is three characters: a shorter term has none to look up, and is compared row by row. */
export function hasTrigrams(term: string): boolean {
  return [...term].length >= 3;
}

/**
 * An FTS5 query for rows whose `column` holds `term`: the term as one quoted phrase, so every
 * character is literal ('"' doubled) and its trigrams must follow one another, which is exactly
 * "contains". Case is folded by the tokenizer.
 */
export function ftsContains(column: FtsTables[keyof FtsTables], term: string): string {
  return `${column} : "${term.replaceAll('"', '""')}"`;
}

/** Either of several FTS5 queries. */
export function ftsEither(queries: string[]): string {
  return queries.map((query) => `(${query})`).join(' OR ');
}

/**
 * Up to this many rows matching in the whole table, a search takes them from the index and sorts
 * them (a few milliseconds for 5,000 on SQLite). A term matching more is common: walking the list
 * in its own order meets a page of matches sooner (after about page × rows / matches rows).
 */
export const FEW_MATCHES = 5000;

/**
 * SQLite: the ids of the rows of `table` that `query` matches, as a JSON array, if there are at
 * most FEW_MATCHES (the index stops reading past that); undefined if there are more. The search
 * then picks its page among them (idIn), the FTS query evaluated once.
 */
export async function fewMatchingIds(reader: DatabaseReader, table: keyof FtsTables, query: string): Promise<string | undefined> {
  const hits = sql<{ n: number; ids: string }>`select count(*) as n, json_group_array(rowid) as ids from (
    select rowid from ${sql.table(table)} where ${sql.table(table)} match ${query} limit ${FEW_MATCHES + 1})`;
  const [row] = await reader.rows({ compile: () => hits.compile(reader.db) });
  return row && Number(row.n) <= FEW_MATCHES ? row.ids : undefined;
}

/** `<id> in (the ids of fewMatchingIds)`. */
export function idIn(id: string, ids: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(id)} in (select value from json_each(${ids}))`;
}
