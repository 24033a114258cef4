import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import sharp from 'sharp';
import type { Link } from '@common/links/link-schemas';
import { sameOrigin } from '../test/test-users';

/** POST /api/links as the holder of `cookie`. */
export function postLink(app: FastifyInstance, cookie: string | undefined, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/links', headers: cookie ? { cookie, ...sameOrigin } : {}, payload });
}

/** Creates a link that must succeed and returns it. */
export async function createLinkAs(
  app: FastifyInstance,
  cookie: string,
  payload: {
    title?: string;
    longUrl?: string;
    customUrl?: string | null;
    forwardQuery?: boolean;
    tags?: string[];
    rules?: unknown[];
    variants?: unknown[] | null;
    redirectType?: number;
  } = {},
): Promise<Link> {
  const response = await postLink(app, cookie, { title: 'Un link', longUrl: 'https://example.com/a', ...payload });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json().link as Link;
}

/** The text a QR PNG encodes, read back with a real decoder. */
export async function decodeQr(png: Buffer): Promise<string | undefined> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data;
}
