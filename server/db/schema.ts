import type { Generated, Insertable, Selectable } from 'kysely';

// The database's own shape: every row type in the server derives from these tables.
// Times are epoch milliseconds (bigint) in both dialects, so day buckets are plain integer division.

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  /** Storage key of the profile picture in bucket 'profile-pictures'. */
  profile_image: string;
  created_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a stolen database does not yield live sessions. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface UrlsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  original_url: string;
  custom_url: string | null;
  short_url: string;
  /** Storage key of the QR PNG in bucket 'qrs'. */
  qr: string;
  created_at: number;
}

export interface ClicksTable {
  id: Generated<number>;
  url_id: number;
  created_at: number;
  city: string;
  country: string;
  device: string;
  browser: string | null;
  os: string | null;
  referrer: string | null;
  /** 0 or 1: SQLite has no boolean type. */
  is_bot: Generated<number>;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  urls: UrlsTable;
  clicks: ClicksTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UrlRow = Selectable<UrlsTable>;
export type NewUrlRow = Insertable<UrlsTable>;
export type ClickRow = Selectable<ClicksTable>;
export type NewClickRow = Insertable<ClicksTable>;
