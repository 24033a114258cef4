import { apiErrorSchema, type ApiErrorBody } from '@common/api-error';
import type { CreateLinkInput, Link } from '@common/links/link-schemas';
import { extensionMessages as m } from './extension-messages';
import type { Settings } from './settings';

// The three calls the extension makes to its instance, with the token in the Authorization header
// (the API answers an extension's origin with CORS for token requests, so no host permission is
// needed), and their failures turned into what the person should read.

export type Failure = { message: string; fields?: Record<string, string[]> };
export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

async function call(settings: Settings, path: string, init: RequestInit = {}): Promise<Response | Failure> {
  try {
    return await fetch(`${settings.address}${path}`, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${settings.token}` },
      credentials: 'omit',
    });
  } catch {
    // DNS, refused connection, TLS, or an address that is not a Corto (no CORS): the same to the person.
    return { message: m.unreachable(settings.address) };
  }
}

async function failureOf(response: Response, settings: Settings): Promise<Failure> {
  let body: ApiErrorBody | undefined;
  try {
    const parsed = apiErrorSchema.safeParse(await response.json());
    body = parsed.success ? parsed.data : undefined;
  } catch {
    body = undefined;
  }
  if (!body) return { message: response.status >= 500 ? m.unexpected : m.notCorto(settings.address) };
  if (body.error.code === 'unauthorized') return { message: m.invalidToken };
  if (body.error.code === 'insufficient_scope') return { message: m.readOnlyToken };
  return { message: body.error.message, ...(body.error.fields ? { fields: body.error.fields } : {}) };
}

/**
 * Whether the token opens this instance and may write, without creating anything: the API checks
 * the token (401) and its scope (403 insufficient_scope) before it reads the body, so an empty
 * body answers a write token with the body's 400 and nothing else. (/api/tokens is closed to
 * tokens by design, so no route of theirs can be asked.)
 */
export async function checkWriteToken(settings: Settings): Promise<Outcome<true>> {
  const response = await call(settings, '/api/links', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (!(response instanceof Response)) return { ok: false, failure: response };
  if (response.status === 400) {
    const body = (await response.json().catch(() => undefined)) as unknown;
    if (apiErrorSchema.safeParse(body).data?.error.code === 'validation') return { ok: true, value: true };
    return { ok: false, failure: { message: m.notCorto(settings.address) } };
  }
  return { ok: false, failure: await failureOf(response, settings) };
}

export async function createLink(settings: Settings, input: CreateLinkInput): Promise<Outcome<Link>> {
  const response = await call(settings, '/api/links', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (!(response instanceof Response)) return { ok: false, failure: response };
  if (response.status !== 201) return { ok: false, failure: await failureOf(response, settings) };
  return { ok: true, value: ((await response.json()) as { link: Link }).link };
}

/** The link's QR as a PNG, for an <img> through a blob: URL (no QR code is drawn here). */
export async function fetchQr(settings: Settings, linkId: number): Promise<Blob | undefined> {
  const response = await call(settings, `/api/links/${linkId}/qr?format=png&size=256`);
  if (!(response instanceof Response) || !response.ok) return undefined;
  return response.blob();
}
