import { apiErrorSchema } from '@common/api-error';
import { linkMessages } from '@common/links/link-messages';
import type { ImportResult } from '@common/links/link-schemas';
import { ApiError } from '../../../api/client';
import { withWorkspace, type WorkspaceScope } from '../../workspaces/workspace-path';

/**
 * POST /api/links/import with the file. XMLHttpRequest rather than fetch: it reports the upload's
 * progress (0 to 1); once sent, the dialog polls GET /api/links/import/progress for the rows done.
 */
export function importLinks(scope: WorkspaceScope, file: File, onProgress: (sent: number) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', withWorkspace('/api/links/import', scope));
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    // Sent whole: from here the server creates the rows (the dialog then asks how many are done).
    request.upload.onload = () => onProgress(1);
    request.onerror = () => reject(new ApiError(0, 'network', linkMessages.importFailed));
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status === 200) return resolve(body as ImportResult);
      const error = apiErrorSchema.safeParse(body);
      reject(
        error.success
          ? new ApiError(request.status, error.data.error.code, error.data.error.message, error.data.error.fields)
          : new ApiError(request.status, 'internal', linkMessages.importFailed),
      );
    };
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
