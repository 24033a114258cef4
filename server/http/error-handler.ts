import type { ApiErrorBody, ErrorCode, FieldErrors } from '@common/api-error';
import { errorMessages } from '@common/messages';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isConnectionError } from '../db/dialect';
import { AppError } from './app-error';
import { staticSecurityHeaders } from './security-headers';

// zod's own messages (a body that is not an object, a field nobody asked for) reach the user's
// envelope too: in Spanish, like ours.
z.config(z.locales.es());
z.config({
  customError: (issue) =>
    issue.code === 'unrecognized_keys' ? `Campo no admitido: ${issue.keys.join(', ')}` : undefined,
});

export function errorBody(code: ErrorCode, message: string, fields?: FieldErrors): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

// Fastify's own 4xx errors, given a code and a Spanish message.
const fastifyErrors: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', errorMessages.invalidJson],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', errorMessages.invalidJson],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', errorMessages.unsupportedMediaType],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', errorMessages.payloadTooLarge],
  FST_REQ_FILE_TOO_LARGE: ['payload_too_large', errorMessages.payloadTooLarge],
  FST_PARTS_LIMIT: ['payload_too_large', errorMessages.payloadTooLarge],
  FST_FILES_LIMIT: ['payload_too_large', errorMessages.payloadTooLarge],
  FST_FIELDS_LIMIT: ['payload_too_large', errorMessages.payloadTooLarge],
  FST_INVALID_MULTIPART_CONTENT_TYPE: ['unsupported_media_type', errorMessages.unsupportedMediaType],
};

// Any other 4xx a plugin raises, by status.
const statusErrors: Record<number, [ErrorCode, string]> = {
  401: ['unauthorized', errorMessages.unauthorized],
  403: ['forbidden', errorMessages.forbidden],
  404: ['not_found', errorMessages.notFound],
  413: ['payload_too_large', errorMessages.payloadTooLarge],
  415: ['unsupported_media_type', errorMessages.unsupportedMediaType],
  429: ['rate_limited', errorMessages.rateLimited],
};

/** Zod's issues keyed by the request's own field names, every message kept. */
function fieldsOf(issues: ReadonlyArray<{ instancePath: string; message: string }>): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.instancePath.replace(/^\//, '').split('/')[0] || '_';
    (fields[field] ??= []).push(issue.message);
  }
  return fields;
}

/**
 * Fastify's frameworkErrors option: an address that cannot be decoded ('/%ZZ') or a too long
 * parameter gets our envelope, not Fastify's English one. (The reply's type there is generic.)
 */
export function frameworkErrors(_error: FastifyError, _request: unknown, reply: unknown): void {
  // No hooks run for these, helmet's included: the fixed headers instead.
  void (reply as FastifyReply).headers(staticSecurityHeaders).status(400).send(errorBody('validation', errorMessages.badRequest));
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({ instancePath: v.instancePath, message: v.message ?? '' }));
      return reply.status(400).send(errorBody('validation', errorMessages.validation, fieldsOf(issues)));
    }
    const known = error.code ? fastifyErrors[error.code] : undefined;
    if (known) {
      return reply.status(error.statusCode ?? 400).send(errorBody(known[0], known[1]));
    }
    const byStatus = error.statusCode ? statusErrors[error.statusCode] : undefined;
    if (byStatus) {
      return reply.status(error.statusCode!).send(errorBody(byStatus[0], byStatus[1]));
    }
    // @fastify/busboy throws plain Errors, without a code or a status, for a malformed multipart body.
    if (/^(Multipart: Boundary not found|Unexpected end of multipart data|Unsupported Content-Type)/.test(error.message)) {
      return reply.status(400).send(errorBody('validation', errorMessages.badRequest));
    }
    if (isConnectionError(error) || isConnectionError(error.cause)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send(errorBody('database_unavailable', errorMessages.databaseUnavailable));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'request refused');
      return reply.status(error.statusCode).send(errorBody('validation', errorMessages.badRequest));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('internal', errorMessages.internal));
  });
}
