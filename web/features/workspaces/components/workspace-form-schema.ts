import { createWorkspaceSchema, workspaceSlugSchema } from '@common/workspaces/workspace-schemas';
import { slugFromName } from '@common/workspaces/workspace-slug';
import { z } from 'zod';

/** The create and settings forms: the API's rules for the name, and a slug that may be left empty. */
export const workspaceFormSchema = z.object({
  name: createWorkspaceSchema.shape.name,
  slug: z
    .string()
    .trim()
    .pipe(z.union([z.literal(''), workspaceSlugSchema])),
});
export type WorkspaceFormValues = z.input<typeof workspaceFormSchema>;

/**
 * The slug the address will carry: the one typed (lower case), else the one the server makes from
 * the name (it may add -2, -3... when that one is taken).
 */
export function previewSlug({ name, slug }: WorkspaceFormValues): string {
  const typed = slug.trim().toLowerCase();
  return typed || slugFromName(name);
}
