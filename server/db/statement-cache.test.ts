import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { statementCache } from './statement-cache';

describe('statementCache', () => {
  const sqlite = new SQLite(':memory:');
  afterEach(() => sqlite.exec('drop table if exists t'));

  it('prepares a text once and hands the same statement back', () => {
    const prepare = statementCache(sqlite, 4);
    const first = prepare('select 1 as one');
    expect(prepare('select 1 as one')).toBe(first);
    expect(first.get()).toEqual({ one: 1 });
  });

  it('lets go of the least recently used text, not of one used since', () => {
    const prepare = statementCache(sqlite, 2);
    const a = prepare('select 1');
    const b = prepare('select 2');
    expect(prepare('select 1')).toBe(a); // a is now the most recent
    prepare('select 3'); // over the limit: b goes
    expect(prepare('select 1')).toBe(a);
    expect(prepare('select 2')).not.toBe(b);
  });

  it('a kept statement sees the schema as it is now', () => {
    const prepare = statementCache(sqlite, 4);
    sqlite.exec('create table t (a integer)');
    sqlite.exec('insert into t values (1)');
    expect(prepare('select * from t').all()).toEqual([{ a: 1 }]);
    sqlite.exec('alter table t add column b integer default 7');
    expect(prepare('select * from t').all()).toEqual([{ a: 1, b: 7 }]);
  });
});
