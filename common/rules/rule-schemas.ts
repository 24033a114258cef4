import { z } from 'zod';
import '../zod-setup';
import { longUrlProblems } from '../links/long-url';
import {
  CONDITION_VALUES_MAX,
  QUERY_CONDITIONS_MAX,
  QUERY_NAME_MAX_LENGTH,
  QUERY_VALUE_MAX_LENGTH,
  RULES_PER_LINK,
  ruleMessages as m,
  VARIANTS_MAX,
  VARIANTS_MIN,
} from './rule-messages';

// Where a visit goes (docs/rules.md): a link's rules, its A/B variants and its redirect status,
// checked alike by the API, the import and the edit dialog. What each means is in
// choose-destination.ts, which the redirect and the dialog's «Probar» both run.

export const ruleDevices = ['mobile', 'tablet', 'desktop'] as const;
export const ruleSystems = ['ios', 'android', 'windows', 'macos', 'linux'] as const;
export const ruleBrowsers = ['chrome', 'safari', 'firefox', 'edge', 'opera', 'samsung'] as const;
export type RuleDevice = (typeof ruleDevices)[number];
export type RuleSystem = (typeof ruleSystems)[number];
export type RuleBrowser = (typeof ruleBrowsers)[number];

export const redirectTypes = [302, 301, 307, 308] as const;
export type RedirectType = (typeof redirectTypes)[number];
export const redirectTypeSchema = z.union(redirectTypes.map((status) => z.literal(status)), { error: m.redirectTypeInvalid });

// Intl knows every ISO 3166 region and ISO 639 language, in the browser as on the server; an
// unknown code is named as itself.
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** An ISO 3166-1 alpha-2 country code Intl knows ('ES'), in any case. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && code !== 'ZZ' && regionNames.of(code) !== code;
}

/** An ISO 639 primary language subtag Intl knows ('es'). */
export function isLanguageCode(code: string): boolean {
  if (!/^[a-z]{2,3}$/.test(code)) return false;
  try {
    return languageNames.of(code) !== code;
  } catch {
    return false;
  }
}

const list = <T extends z.ZodType>(item: T) => z.array(item).min(1, m.listEmpty).max(CONDITION_VALUES_MAX, m.listTooLong);

const countryCode = z
  .string({ error: m.countryInvalid('') })
  .trim()
  .toUpperCase()
  .superRefine((code, ctx) => {
    if (!isCountryCode(code)) ctx.addIssue({ code: 'custom', message: m.countryInvalid(code) });
  });

const languageCode = z
  .string({ error: m.languageInvalid('') })
  .trim()
  .toLowerCase()
  .superRefine((code, ctx) => {
    if (!isLanguageCode(code)) ctx.addIssue({ code: 'custom', message: m.languageInvalid(code) });
  });

const instant = z.iso.datetime({ offset: true, error: m.dateInvalid });

/** A rule's or a variant's URL: the link's own format rules (the destination policy is the server's). */
export const destinationUrlSchema = z
  .string({ error: m.ruleUrlRequired })
  .trim()
  .superRefine((value, ctx) => {
    for (const message of longUrlProblems(value)) ctx.addIssue({ code: 'custom', message });
  })
  .transform((value) => new URL(value).href);

export const ruleConditionSchema = z
  .strictObject({
    device: list(z.enum(ruleDevices, { error: m.deviceInvalid })).optional(),
    os: list(z.enum(ruleSystems, { error: m.osInvalid })).optional(),
    browser: list(z.enum(ruleBrowsers, { error: m.browserInvalid })).optional(),
    country: list(countryCode).optional(),
    language: list(languageCode).optional(),
    /** Parameter name to the value it must have, or '*' for any value (present). */
    query: z
      .record(
        z.string().regex(new RegExp(`^[^\\s=&#]{1,${QUERY_NAME_MAX_LENGTH}}$`), m.queryNameInvalid),
        z.string({ error: m.queryValueInvalid }).max(QUERY_VALUE_MAX_LENGTH, m.queryValueInvalid),
      )
      .refine((query) => Object.keys(query).length >= 1, m.listEmpty)
      .refine((query) => Object.keys(query).length <= QUERY_CONDITIONS_MAX, m.queryTooMany)
      .optional(),
    /** ISO 8601: the rule holds from then on. */
    from: instant.optional(),
    /** ISO 8601: the rule holds until then. */
    until: instant.optional(),
  })
  .refine((when) => Object.values(when).some((value) => value !== undefined), m.ruleNeedsCondition)
  .refine((when) => !when.from || !when.until || Date.parse(when.until) > Date.parse(when.from), { message: m.datesReversed, path: ['until'] });
export type RuleCondition = z.output<typeof ruleConditionSchema>;

export const ruleSchema = z.strictObject({ when: ruleConditionSchema, url: destinationUrlSchema });
export type Rule = z.output<typeof ruleSchema>;
export const rulesSchema = z.array(ruleSchema).max(RULES_PER_LINK, m.tooManyRules);

export const variantSchema = z.strictObject({
  url: destinationUrlSchema,
  weight: z.number({ error: m.weightInvalid }).int(m.weightInvalid).min(1, m.weightInvalid).max(99, m.weightInvalid),
});
export type Variant = z.output<typeof variantSchema>;
export const variantsSchema = z
  .array(variantSchema)
  .min(VARIANTS_MIN, m.variantsCount)
  .max(VARIANTS_MAX, m.variantsCount)
  .refine((variants) => variants.reduce((sum, variant) => sum + variant.weight, 0) === 100, m.weightsSum);

/** Where a visit went: a rule, an A/B variant, or the link's own URL. */
export const destinationSources = ['rule', 'variant', 'default'] as const;
export type DestinationSource = (typeof destinationSources)[number];
