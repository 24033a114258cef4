import { z } from 'zod';
import '../zod-setup';
import { adminMessages } from '../admin/admin-messages';
import { longUrlProblems } from '../links/link-schemas';
import { domainMessages as m } from './domain-messages';
import { checkHostname } from './hostname';

// One schema each for the domain routes, the web app's forms and the client's types
// (docs/domains.md has the contract).

/** A domain as typed: checked and turned into its stored form (lower case, punycode). */
export const hostnameSchema = z.string({ error: m.hostnameRequired }).transform((value, ctx) => {
  const checked = checkHostname(value);
  if ('error' in checked) {
    ctx.addIssue({ code: 'custom', message: checked.error });
    return z.NEVER;
  }
  return checked.hostname;
});

export const addDomainSchema = z.strictObject({ hostname: hostnameSchema });
export type AddDomainInput = z.input<typeof addDomainSchema>;

/** Where a domain's `/` or unknown codes send visitors: a full http(s) URL, or null for Corto's own page. */
const visitorRedirect = z
  .string({ error: m.redirectInvalid })
  .trim()
  .superRefine((value, ctx) => {
    if (value !== '' && longUrlProblems(value).length > 0) ctx.addIssue({ code: 'custom', message: m.redirectInvalid });
  })
  .nullable()
  .transform((value) => (value ? new URL(value).href : null));

export const updateDomainSchema = z.strictObject({ rootRedirect: visitorRedirect.optional(), notFoundRedirect: visitorRedirect.optional() });
export type UpdateDomainInput = z.input<typeof updateDomainSchema>;

export const domainSchema = z
  .object({
    id: z.number().int(),
    /** Lower case and punycode: what DNS, certificates and Host headers use. */
    hostname: z.string(),
    /** The same name as people read it (Unicode). */
    displayHostname: z.string(),
    verified: z.boolean(),
    /** ISO 8601, or null until verified. */
    verifiedAt: z.string().nullable(),
    /** The TXT record that proves the workspace holds the domain. */
    verification: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
    rootRedirect: z.string().nullable(),
    notFoundRedirect: z.string().nullable(),
    /** Disabled by the instance's operator: its links answer 410. */
    disabled: z.boolean(),
    /** Links on the domain. */
    links: z.number().int(),
    /** ISO 8601. */
    createdAt: z.string(),
  })
  .meta({
    examples: [
      {
        id: 3,
        hostname: 'go.empresa.es',
        displayHostname: 'go.empresa.es',
        verified: false,
        verifiedAt: null,
        verification: { type: 'TXT', name: '_corto-challenge.go.empresa.es', value: 'corto-verify=4f0c2a9d8b7e6f5a' },
        rootRedirect: null,
        notFoundRedirect: null,
        disabled: false,
        links: 0,
        createdAt: '2026-11-26T10:00:00.000Z',
      },
    ],
  });
export type Domain = z.infer<typeof domainSchema>;

export const domainResponseSchema = z.object({ domain: domainSchema });
export const domainListSchema = z.object({
  domains: z.array(domainSchema),
  /** The instance's own host (links without a domain answer there), and how many domains a workspace may add (0: none). */
  instanceHost: z.string(),
  limit: z.number().int(),
});
export type DomainList = z.infer<typeof domainListSchema>;

/** GET /api/domains/tls-allowed (Caddy's on_demand_tls `ask`): the name a certificate is wanted for. */
export const tlsAllowedQuerySchema = z.object({ domain: z.string().max(1000).optional() });
export const tlsAllowedSchema = z.object({ allowed: z.literal(true) });

/** The operator's view of a domain (GET /api/admin/domains). */
export const adminDomainSchema = z.object({
  id: z.number().int(),
  hostname: z.string(),
  displayHostname: z.string(),
  workspace: z.object({ id: z.number().int(), slug: z.string(), name: z.string() }),
  verified: z.boolean(),
  disabled: z.boolean(),
  /** ISO 8601, or null while enabled. */
  disabledAt: z.string().nullable(),
  links: z.number().int(),
  createdAt: z.string(),
});
export type AdminDomain = z.infer<typeof adminDomainSchema>;
export const adminDomainsResponseSchema = z.object({ domains: z.array(adminDomainSchema), nextCursor: z.number().nullable() });
export const adminDomainResponseSchema = z.object({ domain: adminDomainSchema });
/** Disabled: the domain's links answer 410; the reason goes to the audit log. */
export const adminDomainPatchSchema = z
  .object({ disabled: z.boolean(), reason: z.string().trim().max(500, { error: adminMessages.reasonTooLong }).optional() })
  .strict();
