import fastifyMultipart from '@fastify/multipart';
import { IMPORT_MAX_BYTES, linkMessages as m } from '@common/links/link-messages';
import { importResponseSchema, type ImportResult } from '@common/links/link-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import pLimit from 'p-limit';
import type { AppContext } from '../app-context';
import { signedInUser } from '../auth/require-user';
import { AppError } from '../http/app-error';
import { createOne } from './link-batch';
import { readImport } from './link-import';

// POST /api/links/import, in a scope of its own: the only links route that reads multipart.
// Rows are created a few at a time (each QR is drawn by sharp on libuv's pool, off the event
// loop); a refused row is reported with its line and Spanish reason and the others go on. One
// import at a time per account. An import is not counted against LINKS_PER_HOUR: it is bounded by
// its own size (IMPORT_MAX_ROWS rows, IMPORT_MAX_BYTES) and by running one at a time.

const ROWS_AT_ONCE = 4;

/** Every message of a refused row in one Spanish sentence. */
function reasonOf(error: { message: string; fields?: Record<string, string[]> | undefined }): string {
  const messages = Object.values(error.fields ?? {}).flat();
  return messages.length > 0 ? [...new Set(messages)].join('. ') : error.message;
}

export async function linkImportRoutes(app: FastifyInstance, context: AppContext) {
  await app.register(fastifyMultipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const running = new Set<number>();

  // longRunning: past API_DEADLINE_MS (10 s) the deadline would answer 503 while rows are still created.
  routes.post('/api/links/import', { schema: { response: { 200: importResponseSchema } }, config: { longRunning: true } }, async (request) => {
    const userId = signedInUser(request).id;
    if (!request.isMultipart()) throw new AppError('validation', m.importFileMissing, { file: [m.importFileMissing] });
    const file = await request.file();
    if (!file) throw new AppError('validation', m.importFileMissing, { file: [m.importFileMissing] });
    let bytes: Buffer;
    try {
      bytes = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', m.importTooLarge, { file: [m.importTooLarge] });
      throw error;
    }
    if (running.has(userId)) throw new AppError('conflict', m.importBusy);
    running.add(userId);
    try {
      const { rows } = await readImport(bytes);
      const limit = pLimit(ROWS_AT_ONCE);
      const outcomes = await Promise.all(
        rows.map((row) =>
          limit(async () => {
            if ('error' in row) return { row: row.row, error: row.error };
            const result = await createOne(context, userId, row.body);
            return 'error' in result ? { row: row.row, error: reasonOf(result.error) } : { row: row.row };
          }),
        ),
      );
      const failed = outcomes.filter((outcome): outcome is { row: number; error: string } => 'error' in outcome);
      return { created: outcomes.length - failed.length, failed } satisfies ImportResult;
    } finally {
      running.delete(userId);
    }
  });
}
