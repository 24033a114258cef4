import { authMessages as m } from '@common/auth/auth-messages';
import { PASSWORD_MIN_LENGTH } from '@common/constants';
import { registerFieldsSchema } from '@common/auth/auth-schemas';

// The most common passwords (zxcvbn-ts's list of about 49,000: '123456', 'password', 'qwerty'...),
// refused wherever a password is chosen. Loaded on first need (a few megabytes, some 30 ms), then
// checked synchronously inside the request's schema, so its message comes with every other one.

let common: Set<string> | undefined;
let loading: Promise<void> | undefined;

/** A preValidation hook for any route that sets a password: the list is ready before the schema runs. */
export function loadCommonPasswords(): Promise<void> {
  loading ??= import('@zxcvbn-ts/language-common')
    // module.exports, as the default export: a CommonJS package imported on demand offers only that
    // once bundled (Node itself offers the named exports too).
    .then(({ default: { dictionary } }) => {
      common = new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()));
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/** Whether a password is on the list, whatever its case. */
export function isCommonPassword(password: string): boolean {
  if (!common) throw new Error('The common-passwords list is not loaded: add loadCommonPasswords as a preValidation hook');
  return common.has(password.toLowerCase());
}

/**
 * The rules of a new password: the form's (shared with the browser), and not a common one. A password
 * already refused for its length gets no second message.
 */
export const newPasswordSchema = registerFieldsSchema.shape.password.refine(
  (password) => password.length < PASSWORD_MIN_LENGTH || !isCommonPassword(password),
  { error: m.passwordCommon },
);
