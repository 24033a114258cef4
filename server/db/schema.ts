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
  /** searchText(title) (search-text.ts): what the title filter matches, accents and case removed. */
  title_search: string;
  original_url: string;
  /** The alias as its owner typed it (NFC), shown and put in the QR. */
  custom_url: string | null;
  /** addressKey(custom_url): what lookups and the unique index compare. Set with custom_url, always. */
  custom_url_key: string | null;
  short_url: string;
  /** Storage key of the QR PNG in bucket 'qrs'. */
  qr: string;
  created_at: number;
  /** Human GET clicks (no bots, no HEAD), kept by the click writer. */
  click_count: Generated<number>;
  /** Last edit; created_at until the first. */
  updated_at: number | null;
  /** 0 or 1: a paused link answers 404 until resumed. */
  paused: Generated<number>;
  /** After this instant the link answers 410. */
  expires_at: number | null;
  /** Human visits let through at most; null for no limit. */
  max_clicks: number | null;
  /** Human visits counted against max_clicks, at redirect time (atomically, across instances). */
  limit_used: Generated<number>;
  /** argon2id of the visitors' password; null for an open link. */
  password_hash: string | null;
}

/** A former alias of a link: it keeps redirecting there until the owner frees it. */
export interface FormerAliasesTable {
  /** addressKey(alias), as urls.custom_url_key. */
  alias_key: string;
  alias: string;
  url_id: number;
  created_at: number;
}

/** One tag of one user: its first spelling, and the key it is compared by (tagKey, lowercase). */
export interface TagsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  name_key: string;
}

/** A tag on a link. */
export interface LinkTagsTable {
  tag_id: number;
  url_id: number;
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

/** Day is days since the Unix epoch (UTC). */
export type RollupDimension =
  | 'total' // value ''
  | 'country' // ISO code, or 'Unknown'
  | 'city'
  | 'device' // mobile | tablet | desktop
  | 'browser'
  | 'os'
  | 'referrer' // domain, or '' for direct
  | 'visitors' // unique visitors that day; value ''
  | 'bots'; // bot and link-preview hits left out of the counts; value ''

export interface ClickRollupsTable {
  url_id: number;
  day: number;
  dimension: RollupDimension;
  value: string;
  clicks: number;
}

export interface ClickVisitorsTable {
  url_id: number;
  day: number;
  /** Salted hash of IP and user agent; the salt changes every day, so it cannot be traced back. */
  visitor_hash: string;
}

/** One Idempotency-Key of one user; status_code and response_body stay null while its request runs. */
export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: number;
}

/** Each user's count of links and sum of their click_count, kept by triggers on urls (migration 0005). */
export interface UserLinkTotalsTable {
  user_id: number;
  links: number;
  clicks: number;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  urls: UrlsTable;
  clicks: ClicksTable;
  click_rollups: ClickRollupsTable;
  click_visitors: ClickVisitorsTable;
  idempotency_keys: IdempotencyKeysTable;
  user_link_totals: UserLinkTotalsTable;
  former_aliases: FormerAliasesTable;
  tags: TagsTable;
  link_tags: LinkTagsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UrlRow = Selectable<UrlsTable>;
export type NewUrlRow = Insertable<UrlsTable>;
export type ClickRow = Selectable<ClicksTable>;
export type NewClickRow = Insertable<ClicksTable>;
