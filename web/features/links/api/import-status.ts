import type { CreationQuotaState, ImportProgress } from '@common/links/quota-schemas';
import { apiFetch } from '../../../api/client';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';

/** GET /api/links/quota: the hour's places left, read when a file is chosen and after an import. */
export function getCreationQuota(scope: WorkspaceScope) {
  return apiFetch<CreationQuotaState>(withWorkspace('/api/links/quota', scope));
}

/** GET /api/links/import/progress: rows done of the import under way, polled while it runs. */
export function getImportProgress(scope: WorkspaceScope) {
  return apiFetch<ImportProgress>(withWorkspace('/api/links/import/progress', scope));
}
