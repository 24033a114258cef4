import { z } from 'zod';
import '../zod-setup';
import { registerFieldsSchema, userSchema } from '../auth/auth-schemas';
import { accountMessages as a } from './account-messages';

// Bodies and answers of /api/account*, /api/auth/password-reset* and /api/auth/totp: one schema for
// the server's route, the web app's form and its types. A new password's list of common ones is
// checked by the server alone (server/auth/common-passwords.ts).

const { name, email, password } = registerFieldsSchema.shape;
/** A password typed to confirm who you are: only its presence is a form rule. */
const confirmingPassword = (required: string) => z.string({ error: required }).min(1, { error: required }).max(1024, { error: a.wrongPassword });
/** A six-digit code or a recovery code (letters, digits and hyphens): spaces are ignored. */
const code = z
  .string({ error: a.codeRequired })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().min(1, { error: a.codeRequired }).regex(/^(\d{6}|[A-Za-z0-9-]{10,20})$/, { error: a.codeFormat }));

export const updateNameSchema = z.object({ name }).strict();
export const changeEmailSchema = z.object({ email, password: confirmingPassword(a.passwordConfirmRequired) }).strict();
export const changePasswordSchema = z.object({ currentPassword: confirmingPassword(a.currentPasswordRequired), newPassword: password }).strict();
export const deleteAccountSchema = z.object({ password: confirmingPassword(a.passwordConfirmRequired) }).strict();

export const sessionSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** 'Chrome en Windows', 'Safari en iPhone'... from the User-Agent it signed in with. */
  device: z.string(),
  /** The session this request came with ('Esta sesión'). */
  current: z.boolean(),
});
export const sessionsResponseSchema = z.object({ sessions: z.array(sessionSchema) });

export const passwordResetRequestSchema = z.object({ email: registerFieldsSchema.shape.email }).strict();
export const passwordResetConfirmSchema = z
  .object({
    token: z.string({ error: a.resetTokenRequired }).min(1, { error: a.resetTokenRequired }).max(200, { error: a.resetTokenInvalid }),
    password,
  })
  .strict();
/** GET /api/auth/password-reset: whether this server can send the e-mail at all. */
export const passwordResetAvailabilitySchema = z.object({ available: z.boolean() });

/**
 * GET /api/account/email/verification: whether the account's address is proved, whether this
 * server can send the link, whether a link to it is out (so the page offers 'Reenviar'), and the
 * new address a change waits on (null when none): the account keeps its address until then.
 */
export const emailVerificationStatusSchema = z.object({
  verified: z.boolean(),
  available: z.boolean(),
  linkSent: z.boolean(),
  pendingEmail: z.string().nullable(),
});
/**
 * POST /api/account/email: 200 with the changed user when no mail can be sent (SMTP_URL unset);
 * 202 with the user unchanged, the address waiting for its link, and a sentence to show.
 */
export const changeEmailResponseSchema = z.object({ user: userSchema, pendingEmail: z.string().optional(), message: z.string().optional() });
export const emailVerificationConfirmSchema = z
  .object({ token: z.string({ error: a.verifyTokenRequired }).min(1, { error: a.verifyTokenRequired }).max(200, { error: a.verifyTokenInvalid }) })
  .strict();
/** What the sending and the confirming answer: a sentence to show as it is. */
export const accountMessageResponseSchema = z.object({ message: z.string() });

export const totpSetupResponseSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** A PNG of the otpauth URL as a data: address, made by the server. */
  qr: z.string(),
});
export const totpCodeSchema = z.object({ code }).strict();
export const totpDisableSchema = z.object({ password: confirmingPassword(a.passwordConfirmRequired), code }).strict();
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** POST /api/auth/login: the user, or the second step for an account with two-factor on. */
export const loginResponseSchema = z.union([z.object({ user: userSchema }), z.object({ totpRequired: z.literal(true) })]);

export type Session = z.infer<typeof sessionSchema>;
export type ChangeEmailAnswer = z.infer<typeof changeEmailResponseSchema>;
export type EmailVerificationStatus = z.infer<typeof emailVerificationStatusSchema>;
export type TotpSetup = z.infer<typeof totpSetupResponseSchema>;
export type LoginAnswer = z.infer<typeof loginResponseSchema>;
