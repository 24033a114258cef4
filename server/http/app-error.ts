import type { ErrorCode, FieldErrors } from '@common/api-error';

const statusByCode: Record<ErrorCode, number> = {
  validation: 400,
  invalid_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  request_timeout: 408,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  method_not_allowed: 405,
  not_found: 404,
  conflict: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  idempotency_link_deleted: 409,
  rate_limited: 429,
  database_unavailable: 503,
  storage_unavailable: 503,
  not_ready: 503,
  busy: 503,
  internal: 500,
};

/** An error meant for the user: its message is Spanish and is sent as it is. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    /** Sent as Retry-After: when a refused client may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.statusCode = statusByCode[code];
  }
}
