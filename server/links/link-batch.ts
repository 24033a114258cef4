import type { FieldErrors } from '@common/api-error';
import { type BulkResult, type CreateLink, createLinkSchema } from '@common/links/link-schemas';
import { errorMessages } from '@common/messages';
import type { AppContext } from '../app-context';
import { AppError } from '../http/app-error';
import { type CreatedLink, createLink } from './create-link';
import type { ClaimOne } from './creation-quota';
import { tagsOf } from './link-tags';
import type { LinkActor } from './link-actor';
import { rowToLink } from './link-mapper';

// Many creations in one request (bulk, import): each body is checked and created on its own, and
// a refusal (bad field, alias taken, hour's quota full) becomes that item's answer, in the API's
// own error envelope, without stopping the others. A fault of ours (the database gone) still fails
// the request as a whole.

const strictCreate = createLinkSchema.strict();

/** zod's issues keyed by the body's own field names, as the error handler does for a request. */
function fieldsOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) (fields[String(issue.path[0] ?? '_')] ??= []).push(issue.message);
  return fields;
}

/** A body checked as POST /api/links checks it: what to create, or its refusal in the API's envelope. */
export function checkCreation(body: unknown): { input: CreateLink } | Extract<BulkResult, { error: unknown }> {
  const parsed = strictCreate.safeParse(body);
  if (parsed.success) return { input: parsed.data };
  return { error: { code: 'validation', message: errorMessages.validation, fields: fieldsOf(parsed.error.issues) } };
}

/** `run` wraps the creation (the hour's quota); its AppError is the item's answer too. */
export async function createOne(
  context: AppContext,
  actor: LinkActor,
  body: unknown,
  run: (create: (claim?: ClaimOne) => Promise<CreatedLink>) => Promise<CreatedLink> = (create) => create(),
): Promise<BulkResult> {
  const checked = checkCreation(body);
  if ('error' in checked) return checked;
  try {
    const row = await run((claim) => createLink(context, actor, checked.input, undefined, claim));
    const tags = (await tagsOf(context.database.db, [row.id])).get(row.id);
    return { link: rowToLink(row, context, { workspace: actor.workspace.slug, createdBy: actor.user, domain: row.domainHostname, tags }) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } };
  }
}
