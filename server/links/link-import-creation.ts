import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { buckets } from '@common/constants';
import { type CreateLink, type ImportResult } from '@common/links/link-schemas';
import { importAliasRepeated, linkMessages as m } from '@common/links/link-messages';
import { qrAddressOf } from '@common/links/qr-options';
import { isReservedPath } from '@common/reserved-paths';
import pLimit from 'p-limit';
import type { AppContext } from '../app-context';
import { isUniqueViolation } from '../db/dialect';
import { AppError } from '../http/app-error';
import { createLink } from './create-link';
import { destinationProblem } from './destination-policy';
import { routingColumns, routingProblems } from './link-routing';
import { saveDestinations } from '../rules/link-destinations';
import type { ImportRow } from './link-import';
import type { ClaimOne, CreationQuota } from './creation-quota';
import { domainAddressKey } from '../domains/domain-keys';
import { checkCreation } from './link-batch';
import { type LinkDomain, linkDomainResolver } from './link-domain';
import { shortLinkOf } from './link-mapper';
import { tagNewLinks } from './link-tags';
import { insertLinks, takenAddresses } from './links.queries';
import { qrKey } from './qr';
import type { QrThread } from './qr-thread';
import { newShortCode } from './short-code';
import type { LinkActor } from './link-actor';
import { recordActivity } from '../workspaces/activity';

// Creating an import's rows: each row is checked and created or refused on its own, with the same
// rules and Spanish reasons as POST /api/links (createLink), but a chunk at a time: the chunk's
// addresses looked up in bulk, its QRs drawn on the QR thread, stored a few at a time, and its
// links and tags inserted in transactions of a few rows (SQLite) or all of them (PostgreSQL). The
// event loop gets a turn every 2 ms of checking and after every transaction, so redirects are
// answered throughout.

/** Rows checked, drawn and stored together (one message to the QR thread). */
const CHUNK_ROWS = 200;
/**
 * Rows a transaction. SQLite's runs on the event loop: 25 rows take ~2 ms (p90 4 ms on a busy
 * 2-core machine). PostgreSQL's only waits on the network, so the whole chunk goes at once.
 */
const TRANSACTION_ROWS = { sqlite: 25, postgres: CHUNK_ROWS } as const;
/** QR files written at once (libuv's pool has 4 threads; each write waits on the disk). */
const STORES_AT_ONCE = 16;
/** Checking rows gives the event loop a turn once this long has gone by. */
const SLICE_MS = 2;
// As createLink: with 2.2 billion codes, a few draws make failing all of them practically impossible.
const MAX_CODE_ATTEMPTS = 5;

type Context = Pick<AppContext, 'database' | 'storage' | 'config' | 'blockedDomains'> & Partial<Pick<AppContext, 'hostedDomains'>>;
type Failure = { row: number; error: string };
/** A row ready to be created: its code drawn, its addresses free and claimed by this file. */
interface Ready {
  row: number;
  input: CreateLink;
  /** The custom domain its `domain` column named (null: the instance's host). */
  domain: LinkDomain | null;
  shortCode: string;
}

/** Every message of a refused row in one Spanish sentence. */
export function reasonOf(error: { message: string; fields?: Record<string, string[]> | undefined }): string {
  const messages = Object.values(error.fields ?? {}).flat();
  return messages.length > 0 ? [...new Set(messages)].join('. ') : error.message;
}

/** Gives the event loop a turn whenever `sliceMs` have gone by since the last one. */
function turnTaker(sliceMs: number) {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await yieldToEventLoop();
    since = performance.now();
  };
}

/**
 * Creates every row that can be, in the file's order (`onProgress` hears how many rows are done,
 * created or refused, after each chunk): a row whose alias an earlier row (or any
 * link, code or former alias, or a deleted link's held address) has is refused as taken, as it would be one by one. A fault of ours
 * (database, object store, QR thread) fails the whole import, as it fails a single creation.
 */
export async function createImportedLinks(
  context: Context,
  qrThread: QrThread,
  quota: CreationQuota,
  actor: LinkActor,
  rows: ImportRow[],
  onProgress: (done: number) => void = () => {},
): Promise<ImportResult> {
  const userId = actor.user.id;
  const failed: Failure[] = [];
  let created = 0;
  // The hour's places as the import starts: rows past them are refused before a QR is drawn. The
  // count taken again in each insert's transaction (quota.claim) decides, with other creations.
  let budget = await quota.left(userId);
  // Every address (domainAddressKey) this file has taken so far: an alias with its row, a code with 0.
  const claimed = new Map<string, number>();
  // Each domain named in the file looked up once.
  const domainOf = linkDomainResolver(context.database.db, context.config, actor.workspace.id);
  const turn = turnTaker(SLICE_MS);

  // While a chunk is stored and inserted, the next one is checked and drawn.
  let storing: Promise<void> = Promise.resolve();
  try {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const checked = await checkChunk(context, userId, domainOf, rows.slice(start, start + CHUNK_ROWS), claimed, failed, turn);
      const ready = checked.slice(0, Math.max(0, budget));
      for (const { row } of checked.slice(ready.length)) failed.push({ row, error: m.importRowOverQuota });
      budget -= ready.length;
      const pngs = await qrThread.draw(ready.map(({ input, domain, shortCode }) => qrTextOf(context, input, domain, shortCode)));
      await storing;
      storing = storeAndInsert(context, quota, actor, ready, pngs).then(({ made, refused }) => {
        created += made;
        failed.push(...refused);
        onProgress(created + failed.length);
      });
      storing.catch(() => {}); // awaited at the next chunk or below
      await yieldToEventLoop();
    }
    await storing;
  } finally {
    await storing.catch(() => {});
  }
  // One entry for the whole file, with how many links it made (a thousand rows are not a thousand entries).
  if (created > 0) {
    await recordActivity(context.database.db, { workspaceId: actor.workspace.id, actor: actor.user, action: 'links.imported', target: String(created), detail: null });
  }
  const wait = await quota.retryAfter(userId);
  return {
    created,
    failed: failed.sort((a, b) => a.row - b.row),
    overQuota: failed.filter(({ error }) => error === m.importRowOverQuota).length,
    retryAfterSeconds: wait > 0 ? wait : null,
  };
}

const qrTextOf = ({ config }: Context, input: CreateLink, domain: LinkDomain | null, shortCode: string) =>
  qrAddressOf(shortLinkOf(config.publicBaseUrl, { shortCode, customUrl: input.customUrl, domain: domain?.hostname ?? null }));

/**
 * The rows of a chunk that can be created, each with a free code; the others go to `failed` with
 * their reason. Checks each body as createOne does, its destination as createLink does, then the
 * chunk's aliases and codes against the database in one go and against `claimed`, which takes them.
 */
async function checkChunk(
  context: Context,
  userId: number,
  domainOf: ReturnType<typeof linkDomainResolver>,
  rows: ImportRow[],
  claimed: Map<string, number>,
  failed: Failure[],
  turn: () => Promise<void>,
): Promise<Ready[]> {
  const { config, blockedDomains, database } = context;
  const checked: { row: number; input: CreateLink; domain: LinkDomain | null }[] = [];
  for (const row of rows) {
    await turn();
    if ('error' in row) {
      failed.push({ row: row.row, error: row.error });
      continue;
    }
    const creation = checkCreation(row.body);
    if ('error' in creation) {
      failed.push({ row: row.row, error: reasonOf(creation.error) });
      continue;
    }
    const policy = { publicBaseUrl: config.publicBaseUrl, allowPrivate: config.allowPrivateDestinations, blockedDomains: blockedDomains.domains };
    const destination = destinationProblem(creation.input.longUrl, policy);
    const routing = routingProblems(creation.input, policy, context.hostedDomains);
    if (destination || routing) {
      failed.push({ row: row.row, error: reasonOf({ message: destination ?? '', fields: { ...(destination ? { longUrl: [destination] } : {}), ...routing } }) });
      continue;
    }
    // A domain that is not a verified one of the workspace: the row is refused with the reason.
    const domain = await domainOf(creation.input.domain);
    if ('error' in domain) failed.push({ row: row.row, error: domain.error });
    else checked.push({ row: row.row, input: creation.input, domain: domain.domain });
  }

  // Aliases are compared on their domain: the same alias on two domains is two addresses.
  const aliasOf = (input: CreateLink, domain: LinkDomain | null) => (input.customUrl ? domainAddressKey(domain?.id, input.customUrl) : undefined);
  const takenAliases = await takenAddresses(
    database.db,
    checked.flatMap(({ input, domain }) => (input.customUrl ? [{ domainId: domain?.id ?? null, address: input.customUrl }] : [])),
    userId,
  );
  const ready: Ready[] = [];
  for (const { row, input, domain } of checked) {
    const alias = aliasOf(input, domain);
    const earlierRow = alias === undefined ? undefined : claimed.get(alias);
    if (alias !== undefined && (takenAliases.has(alias) || earlierRow !== undefined)) {
      failed.push({ row, error: earlierRow ? importAliasRepeated(earlierRow) : m.aliasTaken });
      continue;
    }
    if (alias !== undefined) claimed.set(alias, row);
    ready.push({ row, input, domain, shortCode: '' });
  }

  // Codes: drawn free of the app's paths and of this file's addresses, then checked all at once;
  // the few found taken are drawn again.
  let drawing = ready;
  for (let attempt = 0; drawing.length > 0; attempt += 1) {
    if (attempt === MAX_CODE_ATTEMPTS) throw new Error('No free short code after several attempts');
    // A code is free across the instance, and as an address on the instance's host and on its link's domain.
    const keysOf = (link: Ready) => [link.shortCode, ...(link.domain ? [domainAddressKey(link.domain.id, link.shortCode)] : [])];
    for (const link of drawing) {
      do link.shortCode = newShortCode();
      while (isReservedPath(link.shortCode) || keysOf(link).some((key) => claimed.has(key)));
      for (const key of keysOf(link)) claimed.set(key, 0);
    }
    const lookups = drawing.flatMap((link) => [
      { domainId: null, address: link.shortCode },
      ...(link.domain ? [{ domainId: link.domain.id, address: link.shortCode }] : []),
    ]);
    const taken = await takenAddresses(database.db, lookups);
    drawing = drawing.filter((link) => keysOf(link).some((key) => taken.has(key)));
  }
  return ready;
}

/**
 * Stores the chunk's QRs, then inserts its links and tags a few rows a transaction (QR first, as
 * createLink does, so a row never names a missing file), with a turn of the event loop between
 * transactions. If another request took one of the addresses meanwhile, that transaction's files
 * go and each of its rows is created on its own by createLink, which draws again or refuses it.
 */
async function storeAndInsert(
  context: Context,
  quota: CreationQuota,
  actor: LinkActor,
  ready: Ready[],
  pngs: Buffer[],
): Promise<{ made: number; refused: Failure[] }> {
  const { database, storage } = context;
  const userId = actor.user.id;
  const limit = pLimit(STORES_AT_ONCE);
  const removeQrs = (links: Ready[]) =>
    Promise.all(links.map(({ shortCode }) => limit(() => storage.remove(buckets.qrs, qrKey(shortCode)).catch(() => undefined))));
  const stored = await Promise.allSettled(ready.map(({ shortCode }, i) => limit(() => storage.put(buckets.qrs, qrKey(shortCode), pngs[i]!, 'image/png'))));
  const storeFailure = stored.find((result) => result.status === 'rejected');
  if (storeFailure) {
    await removeQrs(ready);
    throw storeFailure.reason;
  }

  let made = 0;
  const refused: Failure[] = [];
  const rowsEach = TRANSACTION_ROWS[database.dialect];
  for (let at = 0; at < ready.length; at += rowsEach) {
    const batch = ready.slice(at, at + rowsEach);
    try {
      const inserted = await database.db.transaction().execute(async (trx) => {
        // The quota's count and the insert in one transaction: rows past the hour's places are refused.
        const allowed = batch.slice(0, await quota.claim(trx, userId, batch.length));
        if (allowed.length === 0) return allowed;
        const now = Date.now();
        const ids = await insertLinks(
          trx,
          allowed.map(({ input, domain, shortCode }) => ({
            workspace_id: actor.workspace.id,
            domain_id: domain?.id ?? null,
            user_id: userId,
            title: input.title,
            original_url: input.longUrl,
            custom_url: input.customUrl,
            short_url: shortCode,
            qr: qrKey(shortCode),
            created_at: now,
            forward_query: input.forwardQuery ? 1 : 0,
            // Every row with the same columns: SQLite takes no DEFAULT in a multi-row insert.
            ...routingColumns({ rules: input.rules ?? null, variants: input.variants ?? null, redirectType: input.redirectType ?? 302 }),
          })),
        );
        for (const { input, shortCode } of allowed) {
          if (input.rules?.length || input.variants?.length) await saveDestinations(trx, ids.get(shortCode)!, input.rules, input.variants);
        }
        await tagNewLinks(
          trx,
          actor.workspace.id,
          allowed.map(({ input, shortCode }) => ({ urlId: ids.get(shortCode)!, tags: input.tags })),
        );
        return allowed;
      });
      made += inserted.length;
      const over = batch.slice(inserted.length);
      for (const { row } of over) refused.push({ row, error: m.importRowOverQuota });
      await removeQrs(over);
    } catch (error) {
      if (!isUniqueViolation(error)) {
        await removeQrs(ready.slice(at));
        throw error;
      }
      await removeQrs(batch);
      for (const { row, input } of batch) {
        try {
          const claim: ClaimOne = async (trx) => {
            if ((await quota.claim(trx, userId, 1)) === 0) throw new AppError('rate_limited', m.importRowOverQuota);
          };
          await createLink(context, actor, input, undefined, claim, false);
          made += 1;
        } catch (refusal) {
          if (!(refusal instanceof AppError)) throw refusal;
          refused.push({ row, error: reasonOf(refusal) });
        }
      }
    }
    await yieldToEventLoop();
  }
  return { made, refused };
}
