import { z } from 'zod';
import './zod-setup';

// The one error envelope every /api answer uses, for the server to send and the web app to read.

export const errorCodes = [
  'validation',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'request_timeout',
  'unauthorized',
  'forbidden',
  'insufficient_scope',
  'method_not_allowed',
  'not_found',
  'conflict',
  'idempotency_in_progress',
  'idempotency_key_reused',
  'idempotency_link_deleted',
  'rate_limited',
  'database_unavailable',
  'storage_unavailable',
  'not_ready',
  'busy',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  }),
});

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
export type FieldErrors = Record<string, string[]>;
