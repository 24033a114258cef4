import { z } from 'zod';
import '../zod-setup';
import { apiErrorSchema } from '../api-error';
import { isReservedPath } from '../reserved-paths';
import { longUrlProblems } from './long-url';
import { isSingleScript } from './mixed-script';
import { previewInputSchema, previewSchema } from '../previews/preview-schemas';
import { redirectTypeSchema, rulesSchema, ruleBrowsers, ruleDevices, ruleSystems, variantsSchema } from '../rules/rule-schemas';
import {
  ALIAS_MAX_LENGTH,
  ALIAS_MIN_LENGTH,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  LINK_PASSWORD_MAX_LENGTH,
  LINK_PASSWORD_MIN_LENGTH,
  BULK_MAX_LINKS,
  MAX_CLICKS_LIMIT,
  TAG_MAX_LENGTH,
  TAGS_PER_LINK,
  TITLE_MAX_LENGTH,
  linkMessages as m,
} from './link-messages';

export { longUrlProblems };

// One schema for the create route, the create form's resolver and the client's types.
// Every rule that fails adds its own message, so a field shows all of them at once.

// Any letter or digit of any script (with the accents and marks written on it), '-' and '_': a
// Spanish product takes 'Ñoquis' or 'canción'. Checked on the NFC form (see customUrl below).
export const ALIAS_CHARACTERS = /^(?:[\p{L}\p{Nd}]\p{M}*|[-_])*$/u;
// C0, DEL and C1 controls: invisible, break logs and CSV, and PostgreSQL refuses NUL in text.
const CONTROL_CHARACTER = /\p{Cc}/u;
// Bidirectional controls (U+202E and friends) reorder what is shown: 'factura\u202Egnp.exe' reads
// as 'facturaexe.png'. An alias cannot hold them anyway (ASCII only).
const BIDI_CONTROL = /\p{Bidi_Control}/u;

/** Every format message for a custom alias already trimmed and not empty (uniqueness is the server's). */
export function aliasProblems(value: string): string[] {
  const problems: string[] = [];
  // Counted in code points (an NFC 'ñ' is one), not in UTF-16 units.
  const length = [...value].length;
  if (length < ALIAS_MIN_LENGTH || length > ALIAS_MAX_LENGTH) problems.push(m.aliasLength);
  // Compatibility variants ('ａｂｃ' fullwidth, the ligature 'ﬁ') would pass for other aliases: refused.
  if (!ALIAS_CHARACTERS.test(value) || value.normalize('NFKC') !== value.normalize('NFC')) problems.push(m.aliasCharacters);
  // Letters of two scripts that look alike ('Ñоqui' with a Cyrillic 'о') would pass for another alias.
  else if (!isSingleScript(value)) problems.push(m.aliasMixedScripts);
  if (isReservedPath(value)) problems.push(m.aliasReserved);
  return problems;
}

/** The form a tag is compared by: 'Verano', ' verano ' and 'VERANO' are one tag. */
export function tagKey(tag: string): string {
  return tag.trim().normalize('NFC').toLowerCase();
}

/** Every message for one tag already trimmed; empty when it is acceptable. */
export function tagProblems(value: string): string[] {
  if (value === '') return [m.tagEmpty];
  const problems: string[] = [];
  if ([...value].length > TAG_MAX_LENGTH) problems.push(m.tagTooLong);
  // '|' separates tags in our CSV; controls and direction marks would hide what a chip says.
  if (value.includes('|') || CONTROL_CHARACTER.test(value) || BIDI_CONTROL.test(value)) problems.push(m.tagCharacters);
  return problems;
}

/**
 * A link's tags: each trimmed (NFC), the same tag in another case given once (the first spelling
 * wins), at most TAGS_PER_LINK of them. Each message once, whichever tags it applies to.
 */
export const tagsSchema = z
  .array(z.string({ error: m.tagsInvalid }), { error: m.tagsInvalid })
  .transform((tags, ctx) => {
    const byKey = new Map<string, string>();
    const problems = new Set<string>();
    for (const raw of tags) {
      const tag = raw.trim().normalize('NFC');
      for (const problem of tagProblems(tag)) problems.add(problem);
      if (!byKey.has(tagKey(tag))) byKey.set(tagKey(tag), tag);
    }
    if (byKey.size > TAGS_PER_LINK) problems.add(m.tagsTooMany);
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
    return [...byKey.values()];
  });

const report = (problems: (value: string) => string[]) => (value: string, ctx: z.RefinementCtx) => {
  for (const message of problems(value)) ctx.addIssue({ code: 'custom', message });
};

export const createLinkSchema = z.object({
  title: z
    .string({ error: m.titleRequired })
    .trim()
    .min(1, m.titleRequired)
    .max(TITLE_MAX_LENGTH, m.titleTooLong)
    .refine((value) => !CONTROL_CHARACTER.test(value), m.titleControl)
    .refine((value) => !BIDI_CONTROL.test(value), m.titleBidi),
  longUrl: z
    .string({ error: m.longUrlRequired })
    .trim()
    .superRefine(report(longUrlProblems))
    // Stored in the URL standard's form (ASCII host, encoded path) so it is always a valid Location header.
    .transform((value) => new URL(value).href),
  // Empty or blank means "no alias".
  customUrl: z
    .string({ error: m.aliasCharacters })
    .trim()
    // One spelling per alias: 'ñ' typed as one character or as 'n' plus a combining tilde is stored alike.
    .normalize('NFC')
    .superRefine((value, ctx) => {
      if (value !== '') report(aliasProblems)(value, ctx);
    })
    .nullish()
    .transform((value) => value || null),
  /** Pass a visit's own query string (less `qr`) on to the destination. Off unless asked. */
  forwardQuery: z.boolean({ error: m.forwardQueryInvalid }).optional(),
  /** Chips to find the link by; none when left out. */
  tags: tagsSchema.optional().transform((tags) => tags ?? []),
  /**
   * The workspace's custom domain the link answers on, in any spelling ('Go.Empresa.es', 'empaña.es');
   * null, blank or the instance's own host: the instance's host. The server checks it is a verified domain of the workspace.
   */
  domain: z
    .string({ error: m.domainInvalid })
    .trim()
    .nullish()
    .transform((value) => value || null),
  /**
   * Where a visit goes instead of longUrl (docs/rules-api.md): at most 20 rules, in order, the first
   * whose conditions all hold wins. None when left out.
   */
  rules: rulesSchema.optional(),
  /** An A/B test: 2 to 5 URLs whose integer weights sum to 100, for visits no rule took. None when left out or null. */
  variants: variantsSchema.nullish(),
  /** The redirect's status: 302 (the default), 301, 307 or 308. */
  redirectType: redirectTypeSchema.optional(),
  /** The card chat apps show when the link is shared (its image: PUT /api/links/:id/preview-image). None when left out or null. */
  preview: previewInputSchema.nullish(),
});

export type CreateLinkInput = z.input<typeof createLinkSchema>;
export type CreateLink = z.output<typeof createLinkSchema>;

/**
 * PATCH /api/links/:id: any subset of the fields. title, longUrl and customUrl follow creation's
 * rules exactly (customUrl null or blank removes the alias); the rest is the link's life.
 */
export const updateLinkSchema = z
  .object({
    title: createLinkSchema.shape.title,
    longUrl: createLinkSchema.shape.longUrl,
    customUrl: createLinkSchema.shape.customUrl,
    forwardQuery: z.boolean({ error: m.forwardQueryInvalid }),
    paused: z.boolean({ error: m.pausedInvalid }),
    /** ISO 8601 with its offset; null removes the date. Must be in the future when set. */
    expiresAt: z
      .iso.datetime({ offset: true, error: m.expiresAtInvalid, abort: true })
      .refine((value) => Date.parse(value) > Date.now(), m.expiresAtPast)
      .nullable(),
    maxClicks: z
      .number({ error: m.maxClicksInvalid })
      .int(m.maxClicksInvalid)
      .min(1, m.maxClicksInvalid)
      .max(MAX_CLICKS_LIMIT, m.maxClicksInvalid)
      .nullable(),
    /** A string sets the visitors' password, null removes it. Never returned. */
    password: z
      .string({ error: m.passwordLength })
      .min(LINK_PASSWORD_MIN_LENGTH, m.passwordLength)
      .max(LINK_PASSWORD_MAX_LENGTH, m.passwordLength)
      .nullable(),
    /** The link's whole set of tags: the ones left out are taken off. */
    tags: tagsSchema,
    /** Moves the link to another domain of the workspace; null or blank: to the instance's own host. */
    domain: z
      .string({ error: m.domainInvalid })
      .trim()
      .nullable()
      .transform((value) => value || null),
    /** The link's whole list of rules, in order; [] removes them all. */
    rules: rulesSchema,
    /** The A/B test's variants; null ends the test. */
    variants: variantsSchema.nullable(),
    redirectType: redirectTypeSchema,
    /** The card chat apps show: its title and description; null removes it, its image included. */
    preview: previewInputSchema.nullable(),
  })
  .partial()
  // A field the API does not know (shortCode, clicks, tags...) is refused, not ignored.
  .strict();

export type UpdateLinkInput = z.input<typeof updateLinkSchema>;
export type UpdateLink = z.output<typeof updateLinkSchema>;

/** active; paused by its owner; expired by date or clicks; disabled by an operator. */
export const linkStatuses = ['active', 'paused', 'expired', 'disabled'] as const;
export const linkStatusSchema = z.enum(linkStatuses, { error: m.statusInvalid });
export type LinkStatus = z.infer<typeof linkStatusSchema>;

export const linkDisabledCauses = ['operator', 'blockedDomain'] as const;
export type LinkDisabledCause = (typeof linkDisabledCauses)[number];

// A link's rules and variants as answers give them: already checked when they were saved, so only
// their shape here (the answer's serializer runs this schema on every link of a list).
const storedConditionSchema = z.object({
  device: z.array(z.enum(ruleDevices)).optional(),
  os: z.array(z.enum(ruleSystems)).optional(),
  browser: z.array(z.enum(ruleBrowsers)).optional(),
  /** ISO 3166-1 alpha-2 codes, upper case. */
  country: z.array(z.string()).optional(),
  /** ISO 639 primary subtags, lower case. */
  language: z.array(z.string()).optional(),
  /** Parameter name to the value it must have, or '*' for any value. */
  query: z.record(z.string(), z.string()).optional(),
  /** ISO 8601. */
  from: z.string().optional(),
  /** ISO 8601. */
  until: z.string().optional(),
});
const storedRuleSchema = z.object({ when: storedConditionSchema, url: z.string() });
const storedVariantSchema = z.object({ url: z.string(), weight: z.number().int() });
const storedRedirectTypeSchema = z.union([z.literal(302), z.literal(301), z.literal(307), z.literal(308)]);

export const linkSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  originalUrl: z.string(),
  shortCode: z.string(),
  customUrl: z.string().nullable(),
  /**
   * The full public address: PUBLIC_BASE_URL/{customUrl ?? shortCode}, or https://{domain}/{customUrl ?? shortCode}
   * for a link on a custom domain.
   */
  shortLink: z.string(),
  /** The custom domain the link answers on (lower case, punycode); null for the instance's own host. */
  domain: z.string().nullable(),
  /** Where the QR PNG is served from. */
  qr: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  clicks: z.number().int(),
  /** ISO 8601: the last edit, or createdAt. */
  updatedAt: z.string(),
  status: linkStatusSchema,
  paused: z.boolean(),
  /** ISO 8601, or null for no date. */
  expiresAt: z.string().nullable(),
  maxClicks: z.number().int().nullable(),
  /** Human visits counted against maxClicks so far. */
  limitClicks: z.number().int(),
  hasPassword: z.boolean(),
  /** Former aliases that still redirect here, as typed. */
  previousAddresses: z.array(z.string()),
  /** Human visits from the link's QR code (?qr=1): a part of `clicks`. */
  scans: z.number().int(),
  /** A visit's own query string (less `qr`) is merged into the destination's. */
  forwardQuery: z.boolean(),
  /** Its tags, in alphabetical order, as first spelled by their owner. */
  tags: z.array(z.string()),
  /** Where visits go instead of originalUrl, in order (the first that holds wins); [] when none. */
  rules: z.array(storedRuleSchema),
  /** The A/B test running (2 to 5 URLs, weights summing to 100); null when none. */
  variants: z.array(storedVariantSchema).nullable(),
  /** The redirect's status: 302 (the default), 301, 307 or 308. */
  redirectType: storedRedirectTypeSchema,
  /**
   * Why the link is disabled (status 'disabled'): 'operator' (the operator disabled it, with
   * disabledReason when they gave one) or 'blockedDomain' (its destination is on a domain the
   * operator blocked); null when it is not disabled.
   */
  disabledCause: z.enum(linkDisabledCauses).nullable(),
  /** The operator's reason, when they disabled the link and gave one. */
  disabledReason: z.string().nullable(),
  /**
   * The card preview bots (WhatsApp, Slack, X...) are shown instead of the redirect; null when none.
   * image: the absolute address of the 1200×630 picture, or null.
   */
  preview: previewSchema,
  /** The slug of the workspace the link belongs to. */
  workspace: z.string(),
  /** Who created it (a member of the workspace, or who was one). */
  createdBy: z.object({ id: z.number().int(), name: z.string() }),
});

export type Link = z.infer<typeof linkSchema>;

export const linkSorts = ['created', 'clicks', 'title'] as const;
export type LinkSort = (typeof linkSorts)[number];
export type SortOrder = 'asc' | 'desc';

export const listLinksQuerySchema = z.object({
  /** Case-insensitive substring of the title. */
  // No title holds a control character; NUL is refused by PostgreSQL and by SQLite's full-text index.
  q: z.string().trim().max(TITLE_MAX_LENGTH, m.titleTooLong).refine((value) => !CONTROL_CHARACTER.test(value), m.searchControl).optional(),
  limit: z.coerce
    .number({ error: m.limitInvalid })
    .int(m.limitInvalid)
    .min(1, m.limitInvalid)
    .max(LIST_MAX_LIMIT, m.limitInvalid)
    .default(LIST_DEFAULT_LIMIT),
  /** nextCursor of the previous page, with the same sort and order. */
  cursor: z.string().regex(/^[A-Za-z0-9_-]{0,1200}\.\d{1,15}$/, m.cursorInvalid).optional(),
  /** Only the links in this state now. */
  status: linkStatusSchema.optional(),
  /** Only the links with this tag (any case). */
  tag: z
    .string({ error: m.tagInvalid })
    .trim()
    .refine((value) => tagProblems(value.normalize('NFC')).length === 0, m.tagInvalid)
    .optional(),
  /** created (default), clicks or title. */
  sort: z.enum(linkSorts, { error: m.sortInvalid }).default('created'),
  /** desc (default) or asc. */
  order: z.enum(['asc', 'desc'], { error: m.orderInvalid }).default('desc'),
  /** Only the links this member created (their user id). */
  createdBy: z.coerce.number({ error: m.createdByInvalid }).int(m.createdByInvalid).min(1, m.createdByInvalid).max(Number.MAX_SAFE_INTEGER, m.createdByInvalid).optional(),
  /**
   * Only the links on this custom domain (any spelling); the instance's own host: the links without
   * one. A name that is no domain of the workspace finds nothing.
   */
  domain: z.string({ error: m.domainInvalid }).trim().max(300, m.domainInvalid).optional(),
});

export type ListLinksQuery = z.input<typeof listLinksQuerySchema>;

export const linkListSchema = z.object({
  links: z.array(linkSchema),
  /** Over all of the workspace's links, whatever the filter or page. */
  totals: z.object({ links: z.number().int(), clicks: z.number().int() }),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /** PUBLIC_BASE_URL, which short addresses start with: the create form shows it before the alias. */
  publicBaseUrl: z.string(),
});

export type LinkList = z.infer<typeof linkListSchema>;

export const linkResponseSchema = z.object({ link: linkSchema });

export const tagListSchema = z.object({
  /** Every tag of the workspace with how many of its links carry it, alphabetical. */
  tags: z.array(z.object({ name: z.string(), links: z.number().int() })),
});

export type TagList = z.infer<typeof tagListSchema>;

/** POST /api/links/bulk: creation bodies, each checked on its own (so not here beyond its shape). */
export const bulkCreateSchema = z
  .object({
    links: z
      .array(z.unknown(), { error: m.bulkInvalid })
      .min(1, m.bulkInvalid)
      .max(BULK_MAX_LINKS, m.bulkTooMany),
  })
  .strict();

/** Each body's outcome, in the order sent: the link made, or why not (the API's error envelope). */
export const bulkResultSchema = z.union([z.object({ link: linkSchema }), apiErrorSchema]);
export const bulkResponseSchema = z.object({ results: z.array(bulkResultSchema) });
export type BulkResult = z.infer<typeof bulkResultSchema>;

/**
 * POST /api/links/import: how many links were made, and each refused row (numbered as in the file,
 * header = 1); how many of those the hourly quota (LINKS_PER_HOUR) refused, and the seconds until
 * the account may create again when the hour is full (null: it may now).
 */
export const importResponseSchema = z.object({
  created: z.number().int(),
  failed: z.array(z.object({ row: z.number().int(), error: z.string() })),
  overQuota: z.number().int(),
  retryAfterSeconds: z.number().int().nullable(),
});
export type ImportResult = z.infer<typeof importResponseSchema>;


