import { z } from 'zod';
import '../zod-setup';
import { adminMessages as m } from './admin-messages';

export const roles = ['user', 'admin'] as const;
export const signupModes = ['open', 'invite', 'closed'] as const;
export type Role = (typeof roles)[number];
export type SignupMode = (typeof signupModes)[number];

/** `q` and `cursor` of the admin lists; the cursor is the last id of the page before. */
export const adminListQuerySchema = z.object({
  // No e-mail, name or link holds a control character; NUL is refused by PostgreSQL and by SQLite's full-text index.
  q: z
    .string()
    .trim()
    .max(200)
    .refine((value) => !/\p{Cc}/u.test(value), m.searchControl)
    .optional()
    .default(''),
  cursor: z.coerce.number().int().positive().optional(),
});

export const adminUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  role: z.enum(roles),
  disabled: z.boolean(),
  createdAt: z.iso.datetime(),
  links: z.number(),
  clicks: z.number(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersResponseSchema = z.object({ users: z.array(adminUserSchema), nextCursor: z.number().nullable() });
export const adminUserResponseSchema = z.object({ user: adminUserSchema });
export const adminUserPatchSchema = z
  .object({
    disabled: z.boolean().optional(),
    role: z.enum(roles).optional(),
    /** Why the account is disabled: kept in the audit log. */
    reason: z.string().trim().max(500, { error: m.reasonTooLong }).optional(),
  })
  .strict();

export const adminLinkSchema = z.object({
  id: z.number(),
  title: z.string(),
  originalUrl: z.string(),
  shortLink: z.string(),
  createdAt: z.iso.datetime(),
  clicks: z.number(),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  owner: z.object({ id: z.number(), email: z.string() }),
});
export type AdminLink = z.infer<typeof adminLinkSchema>;

export const adminLinksResponseSchema = z.object({ links: z.array(adminLinkSchema), nextCursor: z.number().nullable() });
export const adminLinkResponseSchema = z.object({ link: adminLinkSchema });
export const adminLinkPatchSchema = z
  .object({ disabled: z.boolean(), reason: z.string().trim().max(500, { error: m.reasonTooLong }).optional() })
  .strict();

/**
 * A domain as typed: lowercased, without a scheme, port, path or final dots; or an IPv6 address in
 * brackets. The server then writes it as it compares hosts (punycode, '[::ffff:7f00:1]' as 127.0.0.1).
 */
export const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => {
    const host = value.replace(/^[a-z]+:\/\//, '');
    return host.startsWith('[') ? host.replace(/\].*$/, ']') : host.replace(/[/:].*$/, '').replace(/\.+$/, '');
  })
  .refine(
    (value) =>
      /^\[[0-9a-f:.]{2,45}\]$/.test(value) ||
      /^(?=.{1,253}$)([a-z0-9\p{L}]([a-z0-9\p{L}-]{0,61}[a-z0-9\p{L}])?\.)*[a-z0-9\p{L}]([a-z0-9\p{L}-]{0,61}[a-z0-9\p{L}])?$/u.test(value),
    { error: m.domainInvalid },
  );

export const settingsSchema = z.object({
  signup: z.enum(signupModes),
  blockedDomains: z.array(domainSchema).max(10_000),
});
export const settingsResponseSchema = settingsSchema.extend({
  /** SIGNUP in the environment: it wins over the stored setting. */
  signupFromEnvironment: z.enum(signupModes).nullable(),
});
export type Settings = z.infer<typeof settingsResponseSchema>;

export const inviteCreateSchema = z.object({ email: z.email({ error: m.reportEmailInvalid }).optional() }).strict();
export const inviteResponseSchema = z.object({
  invite: z.object({ code: z.string(), url: z.string(), expiresAt: z.iso.datetime(), email: z.string().nullable() }),
});

export const reportCreateSchema = z.object({
  address: z.string({ error: m.reportAddressRequired }).trim().min(1, { error: m.reportAddressRequired }).max(2048),
  reason: z
    .string({ error: m.reportReasonRequired })
    .trim()
    .min(1, { error: m.reportReasonRequired })
    .max(2000, { error: m.reportReasonTooLong }),
  email: z.union([z.literal(''), z.email({ error: m.reportEmailInvalid })]).optional(),
})
  // Unknown fields are refused: a report is answered the same whether its address exists, so the
  // body's shape is the only thing checked in front of it.
  .strict();
export type ReportCreate = z.infer<typeof reportCreateSchema>;

/** A report's state: new, acted on, or nothing to do. */
export const reportStates = ['open', 'resolved', 'dismissed'] as const;
export type ReportState = (typeof reportStates)[number];

export const adminReportSchema = z.object({
  id: z.number(),
  address: z.string(),
  reason: z.string(),
  email: z.string().nullable(),
  createdAt: z.iso.datetime(),
  link: adminLinkSchema.nullable(),
  state: z.enum(reportStates),
  /** When and by whom it was resolved or dismissed; null while open. */
  handledAt: z.iso.datetime().nullable(),
  handledBy: z.string().nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

/** The reports list: the open ones (the default), or the handled ones apart. */
export const adminReportsQuerySchema = adminListQuerySchema.omit({ q: true }).extend({
  state: z.enum(['open', 'handled'], { error: m.reportListInvalid }).optional().default('open'),
});
export const adminReportsResponseSchema = z.object({
  reports: z.array(adminReportSchema),
  nextCursor: z.number().nullable(),
  /** Reports still open, whichever list was asked for. */
  openCount: z.number(),
});
export const adminReportsCountSchema = z.object({ open: z.number() });
export const adminReportPatchSchema = z.object({ state: z.enum(reportStates, { error: m.reportStateInvalid }) }).strict();
export const adminReportResponseSchema = z.object({ report: adminReportSchema });

export const auditEntrySchema = z.object({
  id: z.number(),
  admin: z.string(),
  action: z.string(),
  target: z.string(),
  detail: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditResponseSchema = z.object({ entries: z.array(auditEntrySchema), nextCursor: z.number().nullable() });

/** GET /api/signup's query: an invitation's code, to say what it is before the form is sent. */
export const signupStatusQuerySchema = z.object({ invite: z.string().trim().max(200).optional() });

/**
 * GET /api/signup: what the register tab needs to know before anyone signs in; with ?invite=, also
 * whether that invitation can still be used and, when it is bound to one, its e-mail (whoever
 * holds the code may sign up with it anyway, so the address tells them nothing more).
 */
export const signupStatusSchema = z.object({
  signup: z.enum(signupModes),
  invite: z.object({ valid: z.boolean(), email: z.string().nullable(), expiresAt: z.iso.datetime().nullable() }).optional(),
});
export type SignupStatus = z.infer<typeof signupStatusSchema>;
