import { sql } from 'kysely';
import type { DialectName } from '../../server/db/dialect';

/** The numbers 1 to `count` as a subquery of one column, `n`: rows the database makes itself, for seeds of millions. */
export const numberSeries = (dialect: DialectName, count: number) =>
  dialect === 'sqlite'
    ? sql`with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${count}) select n from seq`
    : sql`select generate_series(1, ${count}) as n`;
