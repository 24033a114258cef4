import { domainMessages as m, UNVERIFIED_CLAIM_DAYS } from '@common/domains/domain-messages';
import {
  addDomainSchema,
  domainListSchema,
  domainResponseSchema,
  tlsAllowedQuerySchema,
  tlsAllowedSchema,
  updateDomainSchema,
} from '@common/domains/domain-schemas';
import { challengeNameOf, checkHostname, displayHostname } from '@common/domains/hostname';
import { errorMessages } from '@common/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context';
import { requireUser, signedInUser } from '../auth/require-user';
import { isUniqueViolation } from '../db/dialect';
import { AppError } from '../http/app-error';
import { destinationProblem } from '../links/destination-policy';
import { recordActivity } from '../workspaces/activity';
import { workspaceFor } from '../workspaces/workspace-access';
import { lookUpChallenge, newVerificationValue } from './domain-verification';
import { domainsChanged } from './domains-changed';
import {
  countDomainLinks,
  countWorkspaceDomains,
  type DomainWithLinks,
  domainOf,
  findWorkspaceDomain,
  listWorkspaceDomains,
  lockWorkspace,
} from './domains.queries';
import { hostnameProblem } from './hostname-policy';

// A workspace's own domains (docs/domains.md): add one, prove it with a TXT record, say where its
// `/` and unknown codes send visitors, delete it once no link uses it. Listing needs 'read';
// everything else 'manage'. tls-allowed is Caddy's question before it asks for a certificate.

const idParams = z.object({ id: z.string().meta({ examples: ['3'] }) });

function domainIdOf(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('not_found', m.notFound);
  return id;
}

const refused = (field: string, message: string) => new AppError('validation', errorMessages.validation, { [field]: [message] });
const DAY_MS = 24 * 60 * 60 * 1000;

/** PostgreSQL's and SQLite's words for a row other rows still point to. */
const isForeignKeyViolation = (error: unknown) => {
  const code = (error as { code?: string } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
};

export async function domainsRoutes(app: FastifyInstance, context: AppContext) {
  const { db } = context.database;
  const { config, hostedDomains } = context;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** Why a name cannot be added: here already, proved elsewhere, or only claimed elsewhere (and when it frees). */
  async function takenBy(hostname: string, workspaceId: number): Promise<AppError> {
    const holder = await db.selectFrom('domains').select(['verified_at', 'workspace_id']).where('hostname', '=', hostname).executeTakeFirst();
    const claimedElsewhere = holder !== undefined && holder.verified_at === null && Number(holder.workspace_id) !== workspaceId;
    return new AppError('conflict', claimedElsewhere ? m.hostnameClaimed : m.hostnameTaken);
  }

  async function ownDomain(workspaceId: number, rawId: string): Promise<DomainWithLinks> {
    const domain = await findWorkspaceDomain(db, workspaceId, domainIdOf(rawId));
    if (!domain) throw new AppError('not_found', m.notFound);
    return domain;
  }

  /** A visitors' redirect the links' destination policy accepts and that does not lead back here. */
  function checkRedirect(field: 'rootRedirect' | 'notFoundRedirect', url: string | null | undefined, hostname: string): void {
    if (!url) return;
    const problem = destinationProblem(url, {
      publicBaseUrl: config.publicBaseUrl,
      allowPrivate: config.allowPrivateDestinations,
      blockedDomains: context.blockedDomains.domains,
    });
    if (problem) throw refused(field, problem);
    const target = new URL(url);
    // `/` sent to `/` of itself, or unknown codes to an address of itself that may be unknown too.
    if (target.hostname === hostname && (field === 'notFoundRedirect' || target.pathname === '/')) throw refused(field, m.redirectLoop);
  }

  routes.get(
    '/api/domains',
    { schema: { response: { 200: domainListSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'read');
      const rows = await listWorkspaceDomains(db, workspace.id);
      return { domains: rows.map(domainOf), instanceHost: hostedDomains.instanceHost, limit: config.domainsPerWorkspace };
    },
  );

  routes.post(
    '/api/domains',
    { schema: { body: addDomainSchema, response: { 201: domainResponseSchema } }, preHandler: requireUser },
    async (request, reply) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const limit = config.domainsPerWorkspace;
      if (limit === 0) throw new AppError('forbidden', m.customDomainsOff);
      const { hostname } = request.body;
      const problem = hostnameProblem(hostname, { instanceHost: hostedDomains.instanceHost, blockedDomains: context.blockedDomains.domains });
      if (problem) throw refused('hostname', problem);
      const user = signedInUser(request);
      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          await lockWorkspace(trx, workspace.id);
          if ((await countWorkspaceDomains(trx, workspace.id)) >= limit) throw new AppError('conflict', m.tooMany(limit));
          // A name added and never proved holds nobody off for ever: after UNVERIFIED_CLAIM_DAYS
          // another workspace may add it (a squatter cannot keep a company from its own domain).
          await trx
            .deleteFrom('domains')
            .where('hostname', '=', hostname)
            .where('verified_at', 'is', null)
            .where('created_at', '<', Date.now() - UNVERIFIED_CLAIM_DAYS * DAY_MS)
            .execute();
          const row = await trx
            .insertInto('domains')
            .values({ workspace_id: workspace.id, hostname, verification_token: newVerificationValue(), created_by: user.id, created_at: Date.now() })
            .returning('id')
            .executeTakeFirstOrThrow();
          await recordActivity(trx, { workspaceId: workspace.id, actor: user, action: 'domain.added', target: displayHostname(hostname) });
          return Number(row.id);
        });
      } catch (error) {
        // Another workspace (or this one) holds the name, or took it a moment ago.
        if (isUniqueViolation(error)) throw await takenBy(hostname, workspace.id);
        throw error;
      }
      await domainsChanged(context);
      return reply.status(201).send({ domain: domainOf((await findWorkspaceDomain(db, workspace.id, id))!) });
    },
  );

  // Caddy's on_demand_tls `ask`: a certificate only for a name this instance answers for. Public,
  // answered from memory; anything that is no such name, whatever its spelling, is a 404.
  routes.get(
    '/api/domains/tls-allowed',
    { schema: { querystring: tlsAllowedQuerySchema, response: { 200: tlsAllowedSchema } } },
    async (request, reply) => {
      const typed = request.query.domain ?? '';
      const bare = typed.trim().toLowerCase().replace(/\.$/, '');
      if (bare !== '' && bare === hostedDomains.instanceHost) return reply.status(200).send({ allowed: true });
      const checked = checkHostname(typed);
      const site = 'hostname' in checked ? hostedDomains.siteOf(checked.hostname) : 'unknown';
      // A disabled domain keeps its certificate: its visitors get the 410 page over HTTPS.
      if (site === 'instance' || (typeof site === 'object' && site.verified)) return reply.status(200).send({ allowed: true });
      throw new AppError('not_found', m.notFound);
    },
  );

  routes.get(
    '/api/domains/:id',
    { schema: { params: idParams, response: { 200: domainResponseSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'read');
      return { domain: domainOf(await ownDomain(workspace.id, request.params.id)) };
    },
  );

  routes.post(
    '/api/domains/:id/verify',
    { schema: { params: idParams, response: { 200: domainResponseSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const domain = await ownDomain(workspace.id, request.params.id);
      // Proved once is proved: the record may go once the domain is verified.
      if (domain.verified_at !== null) return { domain: domainOf(domain) };
      const name = challengeNameOf(domain.hostname);
      const found = await lookUpChallenge(name, domain.verification_token, config.dnsServers);
      if (found.outcome === 'missing') throw new AppError('conflict', m.recordMissing(name));
      if (found.outcome === 'wrong') throw new AppError('conflict', m.recordWrong(name, found.found));
      if (found.outcome === 'failed') {
        request.log.info({ domain: domain.hostname, code: found.code }, 'domain verification: DNS lookup failed');
        throw new AppError('conflict', m.lookupFailed(name));
      }
      const user = signedInUser(request);
      await db.transaction().execute(async (trx) => {
        const updated = await trx.updateTable('domains').set({ verified_at: Date.now() }).where('id', '=', domain.id).where('verified_at', 'is', null).executeTakeFirst();
        // Two verifications at once: one records it.
        if (Number(updated.numUpdatedRows) > 0) {
          await recordActivity(trx, { workspaceId: workspace.id, actor: user, action: 'domain.verified', target: displayHostname(domain.hostname) });
        }
      });
      await domainsChanged(context);
      return { domain: domainOf((await findWorkspaceDomain(db, workspace.id, domain.id))!) };
    },
  );

  routes.patch(
    '/api/domains/:id',
    { schema: { params: idParams, body: updateDomainSchema, response: { 200: domainResponseSchema } }, preHandler: requireUser },
    async (request) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const domain = await ownDomain(workspace.id, request.params.id);
      const { rootRedirect, notFoundRedirect } = request.body;
      checkRedirect('rootRedirect', rootRedirect, domain.hostname);
      checkRedirect('notFoundRedirect', notFoundRedirect, domain.hostname);
      const changes = {
        ...(rootRedirect !== undefined ? { root_redirect: rootRedirect } : {}),
        ...(notFoundRedirect !== undefined ? { not_found_redirect: notFoundRedirect } : {}),
      };
      if (Object.keys(changes).length > 0) {
        await db.updateTable('domains').set(changes).where('id', '=', domain.id).execute();
        await domainsChanged(context);
      }
      return { domain: domainOf((await findWorkspaceDomain(db, workspace.id, domain.id))!) };
    },
  );

  routes.delete(
    '/api/domains/:id',
    { schema: { params: idParams, response: { 204: z.null().meta({ description: 'Dominio eliminado' }) } }, preHandler: requireUser },
    async (request, reply) => {
      const workspace = await workspaceFor(request, db, 'manage');
      const domain = await ownDomain(workspace.id, request.params.id);
      if (domain.links > 0) throw new AppError('conflict', m.inUse(domain.links));
      const user = signedInUser(request);
      try {
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('domains').where('id', '=', domain.id).execute();
          await recordActivity(trx, { workspaceId: workspace.id, actor: user, action: 'domain.deleted', target: displayHostname(domain.hostname) });
        });
      } catch (error) {
        // A link made on it since it was counted: the foreign key keeps the domain.
        if (isForeignKeyViolation(error)) throw new AppError('conflict', m.inUse(Math.max(1, await countDomainLinks(db, domain.id))));
        throw error;
      }
      await domainsChanged(context);
      return reply.status(204).send(null);
    },
  );
}
