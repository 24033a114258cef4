import type { Domain } from '@common/domains/domain-schemas';
import type { FastifyInstance } from 'fastify';
import { call } from '../admin/admin-test-support';
import type { TestApp } from '../test/test-app';
import { domainsChanged } from './domains-changed';

const inWorkspace = (url: string, slug?: string) => (slug ? `${url}${url.includes('?') ? '&' : '?'}workspace=${slug}` : url);

/** POST /api/domains as the cookie's owner, in `slug`'s workspace (their personal one without it). */
export function postDomain(app: FastifyInstance, cookie: string | undefined, hostname: unknown, slug?: string) {
  return call(app, cookie, 'POST', inWorkspace('/api/domains', slug), { hostname });
}

/** A domain that must be added. */
export async function addDomainAs(app: FastifyInstance, cookie: string, hostname: string, slug?: string): Promise<Domain> {
  const response = await postDomain(app, cookie, hostname, slug);
  if (response.statusCode !== 201) throw new Error(`add domain: ${response.statusCode} ${response.body}`);
  return response.json().domain as Domain;
}

export function domainCall(app: FastifyInstance, cookie: string | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, slug?: string, payload?: unknown) {
  return call(app, cookie, method, inWorkspace(url, slug), payload);
}

/** Marked verified straight in the table (the TXT lookup is tested on its own), as the routes announce it. */
export async function markVerified(t: TestApp, domainId: number): Promise<void> {
  await t.database.db.updateTable('domains').set({ verified_at: Date.now() }).where('id', '=', domainId).execute();
  await domainsChanged(t.app.appContext);
}

/** A link moved onto the domain (making links on a domain is the links' routes' business). */
export async function putLinkOn(t: TestApp, linkId: number, domainId: number | null): Promise<void> {
  await t.database.db.updateTable('urls').set({ domain_id: domainId }).where('id', '=', linkId).execute();
}
