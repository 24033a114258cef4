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
  /** 'user' or 'admin' (ADMIN_EMAILS writes it too, for a proved address: admin/admin-emails.ts). */
  role: Generated<'user' | 'admin'>;
  /** Set while an operator keeps the account disabled: no sign-in, its links answer 410. */
  disabled_at: number | null;
  /** Base32 TOTP secret: two-factor is on when set (migration 0013). */
  totp_secret: string | null;
  /** The secret being set up, until a code confirms it. */
  totp_pending_secret: string | null;
  /** The TOTP time step of the last accepted code: no code works twice. */
  totp_last_step: number | null;
  /** When the account confirmed its current address by a link sent there (migration 0017); null after a change. */
  email_verified_at: Generated<number | null>;
  /** The lowercase address ADMIN_EMAILS has promoted this account for, or an admin demoted it under. */
  admin_grant_email: Generated<string | null>;
  /** searchText(name): what the operator's search matches, accent-insensitive (migration 0019). */
  name_search: Generated<string>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a stolen database does not yield live sessions. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  /** What the account page and DELETE /api/account/sessions/:id name the session by. */
  public_id: string;
  /** The browser's User-Agent when it signed in (cut to 512 characters). */
  user_agent: string | null;
  /** Written at most once a minute per session (sessions.ts), never by a redirect. */
  last_seen_at: number | null;
}

export interface TotpRecoveryCodesTable {
  user_id: number;
  /** SHA-256 of the code (random, 50 bits: no need for a slow hash). */
  code_hash: string;
  used_at: number | null;
}

/** A right password on an account with two-factor, waiting for its code (5 minutes). */
export interface TotpChallengesTable {
  token_hash: string;
  user_id: number;
  expires_at: number;
}

/** A password-reset link: valid 30 minutes, once; only its hash is kept. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An e-mail verification link: valid a day, once; only its hash is kept, with the address it went to. */
export interface EmailVerificationsTable {
  token_hash: string;
  user_id: number;
  /** Lowercase: the link proves only this address, so it does nothing once the account's changed. */
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UrlsTable {
  id: Generated<number>;
  /** Who created the link (migration 0021); the workspace owns it. */
  user_id: number;
  /** The workspace the link belongs to (nullable in the database, never null since migration 0021). */
  workspace_id: number;
  title: string;
  /** searchText(title) (search-text.ts): what the title filter matches, accents and case removed. */
  title_search: string;
  original_url: string;
  /** The alias as its owner typed it (NFC), shown and put in the QR. */
  custom_url: string | null;
  /**
   * domainAddressKey(domain_id, custom_url): what lookups and the unique index compare. Set with
   * custom_url, always. addressKey(custom_url) on the instance's host; '{domain_id}/' before it on
   * a custom domain (migration 0022).
   */
  custom_url_key: string | null;
  short_url: string;
  /** The custom domain the link answers on (migration 0022); null for the instance's own host. */
  domain_id: Generated<number | null>;
  /** JSON of its rules (common/rules/rule-schemas.ts), null for none (migration 0023). */
  rules: Generated<string | null>;
  /** JSON of its A/B variants, null for none. */
  variants: Generated<string | null>;
  /** 302 unless told: 301, 307 or 308. */
  redirect_type: Generated<number>;
  /** The card chat apps show (migration 0026): null for none. */
  preview_title: Generated<string | null>;
  preview_description: Generated<string | null>;
  /** Storage key of the preview's image in bucket 'previews' (1200×630). */
  preview_image_key: Generated<string | null>;
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
  /**
   * Places of max_clicks taken: on SQLite the human visits let through, written with their clicks
   * (counted in memory meanwhile); on PostgreSQL the places instances have claimed, in blocks.
   */
  limit_used: Generated<number>;
  /** argon2id of the visitors' password; null for an open link. */
  password_hash: string | null;
  /** Human visits that came from a QR code (?qr=1): a part of click_count, kept by the click writer. */
  scan_count: Generated<number>;
  /** 0 or 1: a visit's own query string (less `qr`) is merged into the destination's. */
  forward_query: Generated<number>;
  /** What the stored QR PNG encodes: 1 the bare address (remade at start), 2 the address with ?qr=1. */
  qr_version: Generated<number>;
  /** Set while an operator keeps the link disabled: it answers 410. */
  disabled_at: number | null;
  disabled_reason: string | null;
}

/** A former alias of a link: it keeps redirecting there until the owner frees it. */
export interface FormerAliasesTable {
  /** domainAddressKey of the alias, as urls.custom_url_key. */
  alias_key: string;
  alias: string;
  url_id: number;
  created_at: number;
}

/** A deleted link's address, held until held_until (ms) for its owner alone, or for nobody (user_id null). */
export interface HeldCodesTable {
  /** domainAddressKey of the address, as urls.custom_url_key (a short code is plain: unique everywhere). */
  code_key: string;
  user_id: number | null;
  held_until: number;
}

/** One tag of one workspace: its first spelling, and the key it is compared by (tagKey, lowercase). */
export interface TagsTable {
  id: Generated<number>;
  workspace_id: number;
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
  /** Where a rule or a variant sent the visit (link_destinations.id); null for the link's own URL (migration 0023). */
  destination_id: Generated<number | null>;
}

/** A URL a link's rule or A/B variant has sent visitors to, once per (link, source, url). */
export interface LinkDestinationsTable {
  id: Generated<number>;
  url_id: number;
  source: 'rule' | 'variant';
  url: string;
  created_at: number;
}

/** Unique visitors per destination and day (destination_id 0: the link's own URL), as click_visitors per link. */
export interface ClickDestinationVisitorsTable {
  url_id: number;
  day: number;
  destination_id: number;
  visitor_hash: string;
  /** The visitor's human clicks there that day (2 or more: came back). */
  clicks: Generated<number>;
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
  | 'scans' // human visits from a QR code (?qr=1), a part of 'total'; value ''
  | 'bots' // bot and link-preview hits left out of the counts; value ''
  | 'destination'; // where a rule or variant sent human visits: link_destinations.id, '' for the link's own URL (migration 0023)

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

/** A batch of clicks the writer has written, by the id it gave it: a batch sent again is not counted twice. */
export interface ClickBatchesTable {
  id: string;
  written_at: number;
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

/** A personal API token; revoking it deletes the row. */
export interface ApiTokensTable {
  id: Generated<number>;
  /** Who made it; it acts as them, in its workspace only. */
  user_id: number;
  /** The workspace it acts in (nullable in the database, never null since migration 0021). */
  workspace_id: number;
  name: string;
  scope: 'read' | 'write';
  /** The secret's first characters: enough to recognise it, never to use it. */
  prefix: string;
  /** SHA-256 (hex) of the secret. */
  token_hash: string;
  created_at: number;
  expires_at: number | null;
  /** Written at most once a minute per token. */
  last_used_at: number | null;
}

/** Each user's count of links and sum of their click_count, kept by triggers on urls (migration 0005). */
export interface UserLinkTotalsTable {
  user_id: number;
  links: number;
  clicks: number;
}

/** One operator setting (signup); the environment wins where it sets the same. */
export interface SettingsTable {
  key: string;
  value: string;
}

/** A blocked destination domain (and its subdomains), lowercase. */
export interface BlockedDomainsTable {
  domain: string;
  created_at: number;
}

/** A single-use sign-up invitation; only the SHA-256 of its code is stored. */
export interface InvitesTable {
  code_hash: string;
  /** Only this e-mail may use it, when set. */
  email: string | null;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An abuse report from anyone about a short address. */
export interface ReportsTable {
  id: Generated<number>;
  /** The short address as the reporter wrote it. */
  reported_link: string;
  /** The link the address led to when reported; null if none (or deleted since). */
  url_id: number | null;
  reason: string;
  email: string | null;
  created_at: number;
  /** When an admin handled it (resolved or dismissed); null while open. */
  resolved_at: number | null;
  /** 'open', 'resolved' or 'dismissed' (migration 0020). */
  state: Generated<'open' | 'resolved' | 'dismissed'>;
  /** The e-mail of the admin who handled it. */
  handled_by: Generated<string | null>;
}

/** Every admin action: who, what, on what, when. */
export interface AuditLogTable {
  id: Generated<number>;
  admin_id: number;
  admin_email: string;
  action: string;
  /** What it acted on, as shown: an e-mail, a short address, a domain. */
  target: string;
  detail: string | null;
  created_at: number;
}

/** A workspace: a user's personal one (personal_user_id set) or a team's (migration 0021). */
export interface WorkspacesTable {
  id: Generated<number>;
  /** Lowercase (workspace-slug.ts), so unique regardless of case. */
  slug: string;
  name: string;
  personal_user_id: number | null;
  created_at: number;
}

export type WorkspaceRole = 'viewer' | 'editor' | 'admin' | 'owner';

export interface WorkspaceMembersTable {
  workspace_id: number;
  user_id: number;
  role: WorkspaceRole;
  joined_at: number;
}

/** An invitation into a workspace; only the SHA-256 of its secret is stored. */
export interface WorkspaceInvitesTable {
  id: Generated<number>;
  workspace_id: number;
  /** Lowercase; only this address may accept it. */
  email: string;
  role: WorkspaceRole;
  token_hash: string;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: number | null;
  revoked_at: number | null;
}

/** Who did what in a workspace, newest last by id. */
export interface WorkspaceActivityTable {
  id: Generated<number>;
  workspace_id: number;
  actor_id: number | null;
  actor_name: string;
  action: string;
  target: string;
  detail: string | null;
  created_at: number;
}

/** Count and clicks of each workspace's links, kept by triggers on urls (as user_link_totals). */
export interface WorkspaceLinkTotalsTable {
  workspace_id: number;
  links: number;
  clicks: number;
}

/** A workspace's own domain (migration 0022). */
export interface DomainsTable {
  id: Generated<number>;
  workspace_id: number;
  /** Lower case and punycode. */
  hostname: string;
  /** What the TXT record at _corto-challenge.{hostname} must hold. */
  verification_token: string;
  verified_at: number | null;
  root_redirect: string | null;
  not_found_redirect: string | null;
  /** Set while an operator keeps the domain disabled: its links answer 410. */
  disabled_at: number | null;
  created_by: number | null;
  created_at: number;
}

// Webhooks (migration 0024): a workspace's receivers, their optional link filter, and the outbox
// of deliveries.
export interface WebhooksTable {
  id: Generated<number>;
  workspace_id: number;
  url: string;
  /** `whsec_...`: signs every delivery, so it is kept as it is; never logged. */
  secret: string;
  /** A JSON array of event names. */
  events: string;
  filtered: number;
  enabled: number;
  disabled_reason: string | null;
  failures_in_a_row: Generated<number>;
  created_at: number;
}

export interface WebhookLinksTable {
  webhook_id: number;
  url_id: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event: string;
  payload: string;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: number | null;
  locked_until: number | null;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: number;
}

/** A click batch's link.clicked events for one webhook, turned into deliveries by the dispatcher (migration 0027). */
export interface WebhookClickBatchesTable {
  id: Generated<number>;
  webhook_id: number;
  clicks: string;
  click_count: number;
  created_at: number;
}

// Sign-in with the company's provider (migration 0025).
export interface OidcIdentitiesTable {
  id: Generated<number>;
  issuer: string;
  sub: string;
  user_id: number;
  /** 1 when OIDC_ADMIN_GROUP made the account an admin: leaving the group takes it back. */
  granted_admin: Generated<number>;
  created_at: number;
  last_sign_in_at: number | null;
}

/** A sign-in on its way through the provider, keyed by the hash of its cookie's value; taken once. */
export interface OidcFlowsTable {
  id_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  /** The same-origin path the user was going to. */
  return_to: string;
  created_at: number;
}

/** The ID token of a session the provider opened, for the logout's id_token_hint. */
export interface OidcSessionsTable {
  token_hash: string;
  id_token: string;
}

export interface DB {
  webhooks: WebhooksTable;
  webhook_links: WebhookLinksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_click_batches: WebhookClickBatchesTable;
  oidc_identities: OidcIdentitiesTable;
  oidc_flows: OidcFlowsTable;
  oidc_sessions: OidcSessionsTable;
  domains: DomainsTable;
  link_destinations: LinkDestinationsTable;
  click_destination_visitors: ClickDestinationVisitorsTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invites: WorkspaceInvitesTable;
  workspace_activity: WorkspaceActivityTable;
  workspace_link_totals: WorkspaceLinkTotalsTable;
  users: UsersTable;
  sessions: SessionsTable;
  urls: UrlsTable;
  clicks: ClicksTable;
  click_rollups: ClickRollupsTable;
  click_visitors: ClickVisitorsTable;
  click_batches: ClickBatchesTable;
  idempotency_keys: IdempotencyKeysTable;
  user_link_totals: UserLinkTotalsTable;
  former_aliases: FormerAliasesTable;
  held_codes: HeldCodesTable;
  api_tokens: ApiTokensTable;
  settings: SettingsTable;
  blocked_domains: BlockedDomainsTable;
  invites: InvitesTable;
  reports: ReportsTable;
  audit_log: AuditLogTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
  totp_challenges: TotpChallengesTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  tags: TagsTable;
  link_tags: LinkTagsTable;
}

export type UserRow = Selectable<UsersTable>;
export type DomainRow = Selectable<DomainsTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UrlRow = Selectable<UrlsTable>;
export type NewUrlRow = Insertable<UrlsTable>;
export type ClickRow = Selectable<ClicksTable>;
export type NewClickRow = Insertable<ClicksTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
