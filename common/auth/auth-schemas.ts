import { z } from 'zod';
import '../zod-setup';
import { PASSWORD_MIN_LENGTH } from '../constants';
import { authMessages as m, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './auth-messages';

// The forms' rules, used by the server's routes and by the /auth forms alike. Every check of a
// field runs, so a form can show all its messages at once; an empty e-mail only says it is
// required (an empty value is not "badly written").

/** A string field that reports `required` both when absent and when blank. */
const requiredString = (required: string) =>
  z.string({ error: required }).trim().min(1, { error: required });

const email = (required: string, invalid: string) =>
  requiredString(required)
    .max(EMAIL_MAX_LENGTH, { error: m.emailTooLong })
    .refine((value) => value === '' || z.regexes.email.test(value), { error: invalid });

// Passwords are not trimmed: a space is a character like any other.
const password = z
  .string({ error: m.passwordRequired })
  .min(1, { error: m.passwordRequired })
  .min(PASSWORD_MIN_LENGTH, { error: m.passwordMin })
  .max(PASSWORD_MAX_LENGTH, { error: m.passwordTooLong });

export const loginSchema = z.object({
  email: email(m.loginEmailRequired, m.loginEmailInvalid),
  password,
});

/** The registration's text fields; the picture is a File in the browser and bytes on the server. */
export const registerFieldsSchema = z.object({
  name: requiredString(m.nameRequired)
    .max(NAME_MAX_LENGTH, { error: m.nameTooLong })
    // C0, DEL and C1 controls: invisible, break logs, and PostgreSQL refuses NUL in text.
    .refine((value) => !/\p{Cc}/u.test(value), { error: m.nameControl })
    // Bidirectional controls (U+202E...) would show the name reordered wherever it is listed.
    .refine((value) => !/\p{Bidi_Control}/u.test(value), { error: m.nameBidi }),
  email: email(m.registerEmailRequired, m.registerEmailInvalid),
  password,
});

/** A user as the API returns it. */
export const userSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  /** Address of the profile picture. */
  profileImage: z.string(),
  createdAt: z.iso.datetime(),
  /** 'admin' sees the operator's screens. */
  role: z.enum(['user', 'admin']),
  /** Two-factor sign-in (TOTP) is on. */
  totp: z.boolean(),
});

export const userResponseSchema = z.object({ user: userSchema });

/** GET /api/auth/session: the signed-in user, or null for nobody. */
export const sessionResponseSchema = z.object({ user: userSchema.nullable() });

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterFields = z.infer<typeof registerFieldsSchema>;
export type User = z.infer<typeof userSchema>;
