// Acting on several links at once (POST /api/links/bulk-update and /bulk-delete): apart from
// link-schemas.ts so that the landing page's bundle, which reads that file, does not carry them.
import { z } from 'zod';
import '../zod-setup';
import { BULK_EDIT_MAX_LINKS, linkMessages as m } from './link-messages';
import { tagsSchema } from './link-schemas';

/** The links a bulk update or delete names: the caller's own; any other id counts as not found. */
const bulkIdsSchema = z
  .array(z.number({ error: m.bulkIdsInvalid }).int(m.bulkIdsInvalid).min(1, m.bulkIdsInvalid).max(Number.MAX_SAFE_INTEGER, m.bulkIdsInvalid), {
    error: m.bulkIdsInvalid,
  })
  .min(1, m.bulkIdsInvalid)
  .max(BULK_EDIT_MAX_LINKS, m.bulkIdsTooMany)
  .transform((ids) => [...new Set(ids)]);

/** POST /api/links/bulk-update: one change (or several) applied to every named link, in one transaction. */
export const bulkUpdateSchema = z
  .object({
    ids: bulkIdsSchema,
    changes: z
      .object({
        /** true pauses them all, false resumes them. */
        paused: z.boolean({ error: m.bulkPausedInvalid }).optional(),
        /** Tags given to every link (a tag it has already stays as it is). */
        addTags: tagsSchema.optional(),
        /** Tags taken off every link that has them (any case). */
        removeTags: tagsSchema.optional(),
      }, { error: m.bulkChangesEmpty })
      .strict()
      .refine((changes) => changes.paused !== undefined || (changes.addTags?.length ?? 0) > 0 || (changes.removeTags?.length ?? 0) > 0, m.bulkChangesEmpty),
  })
  .strict();
export type BulkUpdateInput = z.input<typeof bulkUpdateSchema>;

/** Each link changed: its state and tags before and after, so a client can undo exactly. */
const bulkLinkStateSchema = z.object({ paused: z.boolean(), tags: z.array(z.string()) });
export const bulkUpdateResponseSchema = z.object({
  /** How many of the named links were the caller's and were updated. */
  updated: z.number().int(),
  results: z.array(z.object({ id: z.number().int(), before: bulkLinkStateSchema, after: bulkLinkStateSchema })),
});
export type BulkUpdateResult = z.infer<typeof bulkUpdateResponseSchema>;

/** POST /api/links/bulk-delete. */
export const bulkDeleteSchema = z.object({ ids: bulkIdsSchema }).strict();
export const bulkDeleteResponseSchema = z.object({
  /** How many of the named links were the caller's and were deleted. */
  deleted: z.number().int(),
});
