import { linkMessages } from '@common/links/link-messages';
import type { LinkSort } from '@common/links/link-schemas';
import type { UrlRow } from '../db/schema';
import { AppError } from '../http/app-error';
import { type PageCursor, sortColumns } from './links.queries';

// nextCursor: the last row's sort value and id, '<value>.<id>'. Numbers as they are (a date
// cursor keeps the form it had before the other sorts existed); a title as base64url, so any
// text fits the query string and the cursor's pattern.

export function encodeCursor(row: UrlRow, sort: LinkSort): string {
  const value = row[sortColumns[sort]];
  return `${typeof value === 'string' ? Buffer.from(value).toString('base64url') : value}.${row.id}`;
}

const invalid = () => new AppError('validation', linkMessages.cursorInvalid, { cursor: [linkMessages.cursorInvalid] });

/** The cursor of a page in this sort; one made for another sort is refused. */
export function decodeCursor(cursor: string | undefined, sort: LinkSort): PageCursor | undefined {
  if (!cursor) return undefined;
  const dot = cursor.lastIndexOf('.');
  const [raw, id] = [cursor.slice(0, dot), Number(cursor.slice(dot + 1))];
  if (sort === 'title') return { value: Buffer.from(raw, 'base64url').toString(), id };
  if (!/^\d{1,15}$/.test(raw)) throw invalid();
  return { value: Number(raw), id };
}
