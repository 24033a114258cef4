import { authMessages as m, PROFILE_IMAGE_MAX_BYTES, PROFILE_IMAGE_TYPES } from '@common/auth/auth-messages';
import { registerFieldsSchema } from '@common/auth/auth-schemas';
import { z } from 'zod';

const allowedTypes: readonly string[] = PROFILE_IMAGE_TYPES;

// The picture as the browser holds it: a FileList from the file input. The server checks the
// bytes again; here the declared type and size give quick feedback.
const profileImage = z.custom<FileList>().superRefine((files, context) => {
  const file = files instanceof FileList ? files[0] : undefined;
  if (!file || file.size === 0) {
    context.addIssue({ code: 'custom', message: m.profileImageRequired });
    return;
  }
  if (!allowedTypes.includes(file.type)) context.addIssue({ code: 'custom', message: m.profileImageType });
  if (file.size > PROFILE_IMAGE_MAX_BYTES) context.addIssue({ code: 'custom', message: m.profileImageTooLarge });
});

/** The server's registration rules plus the file input. */
export const registerFormSchema = registerFieldsSchema.extend({ profileImage });

export type RegisterFormInput = z.input<typeof registerFormSchema>;
export type RegisterFormValues = z.output<typeof registerFormSchema>;
