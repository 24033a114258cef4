import type { User } from '@common/auth/auth-schemas';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';

/** A real image made at test time: width × height pixels, in the given format. */
export async function makeImage(
  format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png',
  width = 64,
  height = 64,
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 160, b: 150 } } })
    .toFormat(format)
    .toBuffer();
}

export interface FilePart {
  bytes: Buffer;
  filename: string;
  type: string;
}

/** A multipart/form-data body for app.inject, encoded by the platform's own FormData. */
export async function multipart(fields: Record<string, string | FilePart | undefined>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue; // left out of the form
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.filename);
  }
  const request = new Request('http://corto.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** The `cookie` header that carries the session a response set. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'corto_session');
  if (!cookie) throw new Error(`no session cookie in the answer (${response.statusCode}: ${response.body})`);
  return `${cookie.name}=${cookie.value}`;
}

/**
 * What a browser adds to the web app's own fetches (and a signed-in script must send, or a
 * matching Origin): a write carrying the session cookie without it is refused as cross-site.
 */
export const sameOrigin = { 'sec-fetch-site': 'same-origin' } as const;

let counter = 0;

export interface RegisterOverrides {
  name?: string;
  email?: string;
  password?: string;
}

/**
 * Signs up a new user through the real API (with a real PNG) and returns the user and the
 * `cookie` header of their session: `app.inject({ ..., headers: { cookie } })`.
 */
export async function registerUser(
  app: FastifyInstance,
  overrides: RegisterOverrides = {},
): Promise<{ user: User; cookie: string; password: string }> {
  counter += 1;
  const password = overrides.password ?? 'secreto-123';
  const body = await multipart({
    name: overrides.name ?? `Usuaria ${counter}`,
    email: overrides.email ?? `usuaria-${counter}-${Date.now()}@corto.test`,
    password,
    profileImage: { bytes: await makeImage(), filename: 'avatar.png', type: 'image/png' },
  });
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', ...body });
  if (response.statusCode !== 201) throw new Error(`registerUser: ${response.statusCode} ${response.body}`);
  return { user: (response.json() as { user: User }).user, cookie: sessionCookie(response), password };
}
