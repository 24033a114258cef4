import type { CreationQuotaState, ImportProgress } from '@common/links/quota-schemas';
import { apiFetch } from '../../../api/client';

/** GET /api/links/quota: the hour's places left, read when a file is chosen and after an import. */
export function getCreationQuota() {
  return apiFetch<CreationQuotaState>('/api/links/quota');
}

/** GET /api/links/import/progress: rows done of the import under way, polled while it runs. */
export function getImportProgress() {
  return apiFetch<ImportProgress>('/api/links/import/progress');
}
