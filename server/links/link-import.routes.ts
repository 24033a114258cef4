import { registerMultipart } from '../http/multipart';
import { IMPORT_MAX_BYTES, linkMessages as m } from '@common/links/link-messages';
import { creationQuotaSchema, importProgressSchema } from '@common/links/quota-schemas';
import { importResponseSchema } from '@common/links/link-schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context';
import { signedInUser } from '../auth/require-user';
import { workspaceFor } from '../workspaces/workspace-access';
import { linkActorFor } from './link-actor';
import { AppError } from '../http/app-error';
import { readImport } from './link-import-thread';
import { createCreationQuota } from './creation-quota';
import { createImportedLinks } from './link-import-creation';
import { createQrThread } from './qr-thread';

// POST /api/links/import, in a scope of its own: the only links route that reads multipart. The
// links go into the workspace ?workspace= names (an editor's at least); the quota and the one
// import at a time stay the account's, whatever workspace it imports into.
// Rows are created a chunk at a time (link-import-creation.ts), their QRs drawn on a thread of
// their own; a refused row is reported with its line and Spanish reason and the others go on. One
// import at a time per account. Its rows count against LINKS_PER_HOUR as single creations do:
// rows past the hour's places are refused, each with its line. GET /api/links/quota tells the
// import dialog, before the file is sent, how many rows the hour still lets through.

export async function linkImportRoutes(app: FastifyInstance, context: AppContext) {
  await registerMultipart(app, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // The imports under way on this instance: rows done of the file's rows, by account.
  const running = new Map<number, { done: number; total: number }>();
  const qrThread = createQrThread(app.log);
  const quota = createCreationQuota(context.database.db, context.config.linksPerHour);
  app.addHook('onClose', () => qrThread.close());

  const quotaDescription =
    'El límite de links por hora (LINKS_PER_HOUR, importaciones incluidas): cuántos permite, cuántos puedes crear todavía en esta hora ' +
    'y, si no queda ninguno, los segundos hasta el siguiente. null: sin límite.';
  routes.get('/api/links/quota', { schema: { description: quotaDescription, response: { 200: creationQuotaSchema } } }, async (request) => {
    await workspaceFor(request, context.database.db, 'read');
    const userId = signedInUser(request).id;
    if (quota.perHour <= 0) return { perHour: null, left: null, retryAfterSeconds: null };
    const left = Math.max(0, await quota.left(userId));
    return { perHour: quota.perHour, left, retryAfterSeconds: left > 0 ? null : await quota.retryAfter(userId) };
  });

  // Polled by the import dialog while its file is imported («Creando 800 de 2.000…»). Kept in this
  // instance's memory: behind a balancer, a poll that reaches another instance gets running false.
  const progressDescription = 'Filas terminadas (creadas o rechazadas) de la importación en curso de tu cuenta en esta instancia; running false si no hay ninguna.';
  routes.get('/api/links/import/progress', { schema: { description: progressDescription, response: { 200: importProgressSchema } } }, async (request) => {
    await workspaceFor(request, context.database.db, 'read');
    const progress = running.get(signedInUser(request).id);
    return progress ? { running: true, ...progress } : { running: false, done: 0, total: 0 };
  });

  // longRunning: past API_DEADLINE_MS (10 s) the deadline would answer 503 while rows are still created.
  routes.post('/api/links/import', { schema: { response: { 200: importResponseSchema } }, config: { longRunning: true } }, async (request) => {
    const actor = await linkActorFor(request, context.database.db, 'write');
    const userId = actor.user.id;
    if (!request.isMultipart()) throw new AppError('validation', m.importFileMissing, { file: [m.importFileMissing] });
    const file = await request.file();
    if (!file) throw new AppError('validation', m.importFileMissing, { file: [m.importFileMissing] });
    if (running.has(userId)) {
      // Read to its end, so that the connection is left ready for the answer.
      for await (const chunk of file.file) void chunk;
      throw new AppError('conflict', m.importBusy);
    }
    const progress = { done: 0, total: 0 };
    running.set(userId, progress);
    try {
      const { rows } = await readImport(file.file);
      progress.total = rows.length;
      return await createImportedLinks(context, qrThread, quota, actor, rows, (done) => (progress.done = done));
    } finally {
      running.delete(userId);
    }
  });
}
