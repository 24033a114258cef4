import { z } from 'zod';
import '../zod-setup';
import { isReservedPath } from '../reserved-paths';
import {
  ALIAS_MAX_LENGTH,
  ALIAS_MIN_LENGTH,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  LONG_URL_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  linkMessages as m,
} from './link-messages';

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

/** Every message that applies to a long URL already trimmed; empty when it is acceptable. */
export function longUrlProblems(value: string): string[] {
  if (value === '') return [m.longUrlRequired];
  const problems: string[] = [];
  if (value.length > LONG_URL_MAX_LENGTH) problems.push(m.longUrlTooLong);
  // The URL parser would silently drop a tab or a line break and keep going: refuse them instead.
  if (CONTROL_CHARACTER.test(value)) return [...problems, m.longUrlInvalid];
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    problems.push(m.longUrlInvalid);
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(m.longUrlProtocol);
  else if (url && !url.hostname) problems.push(m.longUrlInvalid);
  return problems;
}

/** Every format message for a custom alias already trimmed and not empty (uniqueness is the server's). */
export function aliasProblems(value: string): string[] {
  const problems: string[] = [];
  // Counted in code points (an NFC 'ñ' is one), not in UTF-16 units.
  const length = [...value].length;
  if (length < ALIAS_MIN_LENGTH || length > ALIAS_MAX_LENGTH) problems.push(m.aliasLength);
  // Compatibility variants ('ａｂｃ' fullwidth, the ligature 'ﬁ') would pass for other aliases: refused.
  if (!ALIAS_CHARACTERS.test(value) || value.normalize('NFKC') !== value.normalize('NFC')) problems.push(m.aliasCharacters);
  if (isReservedPath(value)) problems.push(m.aliasReserved);
  return problems;
}

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
});

export type CreateLinkInput = z.input<typeof createLinkSchema>;
export type CreateLink = z.output<typeof createLinkSchema>;

export const linkSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  originalUrl: z.string(),
  shortCode: z.string(),
  customUrl: z.string().nullable(),
  /** The full public address: PUBLIC_BASE_URL/{customUrl ?? shortCode}. */
  shortLink: z.string(),
  /** Where the QR PNG is served from. */
  qr: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  clicks: z.number().int(),
});

export type Link = z.infer<typeof linkSchema>;

export const listLinksQuerySchema = z.object({
  /** Case-insensitive substring of the title. */
  q: z.string().trim().max(TITLE_MAX_LENGTH, m.titleTooLong).optional(),
  limit: z.coerce
    .number({ error: m.limitInvalid })
    .int(m.limitInvalid)
    .min(1, m.limitInvalid)
    .max(LIST_MAX_LIMIT, m.limitInvalid)
    .default(LIST_DEFAULT_LIMIT),
  /** nextCursor of the previous page. */
  cursor: z.string().regex(/^\d{1,15}\.\d{1,15}$/, m.cursorInvalid).optional(),
});

export type ListLinksQuery = z.input<typeof listLinksQuerySchema>;

export const linkListSchema = z.object({
  links: z.array(linkSchema),
  /** Over all of the caller's links, whatever the filter or page. */
  totals: z.object({ links: z.number().int(), clicks: z.number().int() }),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /** PUBLIC_BASE_URL, which short addresses start with: the create form shows it before the alias. */
  publicBaseUrl: z.string(),
});

export type LinkList = z.infer<typeof linkListSchema>;

export const linkResponseSchema = z.object({ link: linkSchema });
