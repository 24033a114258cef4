// The hourly quota as it stands and an import's progress: read by the import dialog, apart from
// link-schemas.ts so that the landing page's bundle does not carry them.
import { z } from 'zod';
import '../zod-setup';

/**
 * GET /api/links/quota: the hourly quota (LINKS_PER_HOUR) as it stands for the caller: how many
 * links it allows an hour and how many it still lets through now (both null when there is no
 * limit), and the seconds until the next creation when none may be made now (null: one may).
 */
export const creationQuotaSchema = z.object({
  perHour: z.number().int().nullable(),
  left: z.number().int().nullable(),
  retryAfterSeconds: z.number().int().nullable(),
});
export type CreationQuotaState = z.infer<typeof creationQuotaSchema>;

/**
 * GET /api/links/import/progress: the caller's import under way on this instance, rows done
 * (created or refused) of the file's rows; running false when there is none (done and total 0).
 */
export const importProgressSchema = z.object({ running: z.boolean(), done: z.number().int(), total: z.number().int() });
export type ImportProgress = z.infer<typeof importProgressSchema>;
