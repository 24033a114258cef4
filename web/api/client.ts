import type { ApiErrorBody, ErrorCode, FieldErrors } from '@common/api-error';
import { errorMessages } from '@common/messages';

/** An answer of the API that was not a success, carrying the server's Spanish message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields: FieldErrors = {},
  ) {
    super(message);
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  // Checked by hand rather than with the zod schema, which would weigh on every page's download.
  const body = (await response.json().catch(() => null)) as Partial<ApiErrorBody> | null;
  const error = body?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError(response.status, error.code, error.message, error.fields);
  }
  return new ApiError(response.status, 'internal', errorMessages.internal);
}

/** The one way the web app talks to the server: same origin, session cookie, JSON envelope errors. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  const response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
