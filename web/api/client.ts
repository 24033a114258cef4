import type { ApiErrorBody, ErrorCode, FieldErrors } from '@common/api-error';
import { errorMessages, networkMessages } from '@common/messages';

/** Failures with no answer from the server: unreachable, or silent past the deadline. */
export type ClientErrorCode = 'network' | 'timeout';

/** A call that did not succeed, carrying a Spanish message to show as it is. */
export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when no answer came back (code `network` or `timeout`). */
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    readonly fields: FieldErrors = {},
  ) {
    super(message);
  }

  /** True when the request may have reached the server even though no answer came back. */
  get unanswered(): boolean {
    return this.status === 0;
  }
}

/**
 * How long a call may go unanswered. The server gives up on its own work after 10 s
 * (API_DEADLINE_MS) and says so with a 503, so a healthy server never comes near this.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface ApiFetchInit extends RequestInit {
  /** Deadline for this call, in milliseconds (DEFAULT_TIMEOUT_MS otherwise). */
  timeoutMs?: number;
  /** Sent as Idempotency-Key: the server answers a retry with the first answer. */
  idempotencyKey?: string;
}

async function toApiError(response: Response): Promise<ApiError> {
  // Checked by hand rather than with the zod schema, which would weigh on every page's download.
  const body = (await response.json().catch(() => null)) as Partial<ApiErrorBody> | null;
  const error = body?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError(response.status, error.code, error.message, error.fields);
  }
  // No envelope: not Corto's answer but a proxy's in front of it, saying Corto is not reachable.
  if (response.status === 502 || response.status === 503 || response.status === 504) {
    return new ApiError(response.status, 'network', networkMessages.unreachable);
  }
  return new ApiError(response.status, 'internal', errorMessages.internal);
}

/**
 * Fetch with a deadline of its own. A timer rather than AbortSignal.timeout: the same clock as the
 * rest of the page, so a test can move it on. The caller's own signal still cancels as before.
 */
async function fetchWithDeadline(path: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
  try {
    return await fetch(path, { ...init, signal });
  } catch (error) {
    if (init.signal?.aborted) throw error; // cancelled by the caller (a query no one needs any more)
    if (deadline.signal.aborted) throw new ApiError(0, 'timeout', networkMessages.timeout);
    // fetch rejects with a TypeError ('Failed to fetch') for every network failure.
    throw new ApiError(0, 'network', networkMessages.unreachable);
  } finally {
    clearTimeout(timer);
  }
}

/** The one way the web app talks to the server: same origin, session cookie, JSON envelope errors. */
export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, idempotencyKey, ...requestInit } = init;
  const headers = new Headers(requestInit.headers);
  if (typeof requestInit.body === 'string') headers.set('content-type', 'application/json');
  if (idempotencyKey) headers.set('idempotency-key', idempotencyKey);
  const response = await fetchWithDeadline(path, { ...requestInit, headers, credentials: 'same-origin' }, timeoutMs);
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  try {
    return (await response.json()) as T;
  } catch {
    // The connection dropped while the body was on its way.
    throw new ApiError(0, 'network', networkMessages.unreachable);
  }
}

/** A failure's Spanish message: the API's own, or a general one for anything else. */
export function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : errorMessages.internal;
}
