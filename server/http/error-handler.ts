import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiErrorBody, ErrorCode, FieldErrors } from '@common/api-error';
import { errorMessages } from '@common/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isConnectionError } from '../db/dialect';
import { StorageUnavailableError } from '../storage/storage';
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

// @fastify/busboy throws plain Errors, without a code or a status, for a malformed multipart body
// (one cut off inside a part says 'Part terminated early due to unexpected end of multipart data').
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|Unsupported Content-Type|\w+ terminated early due to unexpected end of multipart data)/;

// How reading a body fails when its client goes away: Node's 'aborted', a stream closed early.
const CONNECTION_CLOSED_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * The client closed the connection before its request had arrived whole (an upload given up, a tab
 * closed): a reading error of its body, not a fault of ours or of the database.
 */
function clientClosed(error: FastifyError, request: FastifyRequest): boolean {
  return (
    request.raw.readableAborted &&
    ((error.code !== undefined && CONNECTION_CLOSED_CODES.has(error.code)) || MALFORMED_MULTIPART.test(error.message))
  );
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
    // An error answer is never worth keeping in a cache (nor, on the API, is anything else).
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    if (clientClosed(error, request)) {
      // Nobody is left to read the answer; sent anyway so the request ends like any other.
      request.log.info({ code: error.code }, 'client closed the connection before its request was whole');
      return reply.status(400).send(errorBody('validation', errorMessages.badRequest));
    }
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
    if (MALFORMED_MULTIPART.test(error.message)) {
      return reply.status(400).send(errorBody('validation', errorMessages.badRequest));
    }
    if (error instanceof StorageUnavailableError) {
      request.log.warn({ err: error }, 'object storage unavailable');
      return reply.status(503).send(errorBody('storage_unavailable', errorMessages.storageUnavailable));
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

type ClientError = Error & { code?: string };

// What Node's parser reports, before any request object exists, as status, code and message.
function clientErrorAnswer(error: ClientError): [number, ErrorCode, string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request_timeout', errorMessages.requestTimeout];
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'payload_too_large', errorMessages.payloadTooLarge];
  return [400, 'validation', errorMessages.badRequest];
}

/**
 * Fastify's clientErrorHandler option: a request Node's parser refuses (malformed, headers too
 * large, cut off half-way, or not whole within the request or headers timeout) gets our envelope
 * in Spanish rather than Fastify's English one, and the connection is closed.
 */
export function clientErrorHandler(this: FastifyInstance, error: ClientError, socket: Socket): void {
  // Reset by the client: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err: error }, 'client error: request refused by the HTTP parser');
  // Node's own rule: no second answer on a connection whose answer has begun.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const [status, code, message] = clientErrorAnswer(error);
    const body = JSON.stringify(errorBody(code, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
