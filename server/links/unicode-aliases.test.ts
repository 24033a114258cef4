import { connect } from 'node:net';
import { linkMessages as m } from '@common/links/link-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../redirect/redirect.test-support';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { createLinkAs, decodeQr, postLink } from './links.test-support';

// Aliases in any script: created, refused when taken in another case or spelling, and found by
// the redirect however a client writes them, on a listening server (raw bytes need a socket).

/** Sends one request line as raw bytes (what curl does with 'ñ') and returns the status line and Location. */
function rawGet(base: string, target: Buffer): Promise<{ status: string; location: string | undefined }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(Buffer.concat([Buffer.from('GET '), target, Buffer.from(` HTTP/1.1\r\nHost: ${hostname}\r\nUser-Agent: ${agents.desktop}\r\n\r\n`)]));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0]!.split('\r\n');
      const location = head.find((line) => /^location:/i.test(line))?.replace(/^location:\s*/i, '');
      resolve({ status: head[0]!, location });
    });
  });
}

describe.each(testDialects)('aliases beyond ASCII on %s', (dialect) => {
  let t: TestApp;
  let base = '';
  let cookie = '';
  const BASE = 'https://corto.example';
  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: BASE });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ({ cookie } = await registerUser(t.app));
  });
  afterAll(() => t.close());

  const visit = (path: string) => fetch(`${base}${path}`, { redirect: 'manual', headers: { 'user-agent': agents.desktop } });

  it("takes 'Ñoquis', shows it readable, and puts its percent-encoded form in the QR", async () => {
    const link = await createLinkAs(t.app, cookie, { customUrl: 'Ñoquis', longUrl: 'https://example.com/receta' });
    expect(link.customUrl).toBe('Ñoquis');
    expect(link.shortLink).toBe(`${BASE}/Ñoquis`);
    const png = await t.app.inject({ method: 'GET', url: link.qr });
    expect(await decodeQr(png.rawPayload)).toBe(`${BASE}/%C3%91oquis?qr=1`);
  });

  it('takes letters and digits of any script, with their accents, and stores the NFC spelling', async () => {
    for (const alias of ['canción-2026', '東京タワー', 'Ελλάδα_1', 'नमस्ते', 'Straße']) {
      expect((await createLinkAs(t.app, cookie, { customUrl: alias })).customUrl).toBe(alias);
    }
    // 'é' typed as 'e' plus a combining accent is stored as the one character.
    expect((await createLinkAs(t.app, cookie, { customUrl: 'cafe\u0301-nfd' })).customUrl).toBe('café-nfd');
  });

  it('still refuses what is neither a letter nor a digit, in Spanish', async () => {
    for (const customUrl of ['ñoquis!', 'dos palabras', '🍝🍝🍝', 'a/b', 'x\u200by\u200bz', 'abc\u202e', 'ｎｏｑｕｉｓ', 'ﬁdeos']) {
      const response = await postLink(t.app, cookie, { title: 't', longUrl: 'https://example.com', customUrl });
      expect(response.statusCode, customUrl).toBe(400);
      expect(response.json().error.fields.customUrl).toContain(m.aliasCharacters);
    }
    // Three letters are three, however many UTF-16 units they take.
    expect((await createLinkAs(t.app, cookie, { customUrl: '𠀀𠀁𠀂' })).customUrl).toBe('𠀀𠀁𠀂');
  });

  it("refuses an alias that mixes scripts ('Ñоqui' with a Cyrillic 'о'), and takes one script, or Latin beside Japanese or Korean", async () => {
    for (const customUrl of ['Ñ\u043Equi', 'p\u0430ypal', '\u0440aypal', 'Ελλάδa', 'Tokyoтокио', 'שלוםabc', '東京Москва', 'café\u0661']) {
      const response = await postLink(t.app, cookie, { title: 't', longUrl: 'https://example.com', customUrl });
      expect(response.statusCode, customUrl).toBe(400);
      expect(response.json().error.fields.customUrl, customUrl).toEqual([m.aliasMixedScripts]);
    }
    for (const alias of ['Ñoquis-mixto', '東京都', 'пример', 'Ελλάδα-2', '東京タワー_2', 'とうきょう東京', 'Tokyo東京タワー', '서울Seoul', 'ko-한국어']) {
      expect((await createLinkAs(t.app, cookie, { customUrl: alias })).customUrl, alias).toBe(alias);
    }
  });

  it("refuses 'ñoquis', 'ÑOQUIS' and the NFD spelling once 'Ñoquis' exists, whoever asks", async () => {
    await createLinkAs(t.app, cookie, { customUrl: 'Ñandú' });
    const other = await registerUser(t.app);
    for (const customUrl of ['ñandú', 'ÑANDÚ', 'N\u0303andu\u0301']) {
      const response = await postLink(t.app, other.cookie, { title: 't', longUrl: 'https://example.com', customUrl });
      expect(response.statusCode, customUrl).toBe(409);
      expect(response.json().error.fields).toEqual({ customUrl: [m.aliasTaken] });
    }
  });

  it('redirects the alias percent-encoded in any case or spelling, from the database and then from memory', async () => {
    await createLinkAs(t.app, cookie, { customUrl: 'Piñata', longUrl: 'https://example.com/fiesta' });
    const spellings = ['/Pi%C3%B1ata', '/pi%C3%B1ata', '/PI%C3%91ATA', '/Pin%CC%83ata', '/pi%c3%b1ata?utm=1'];
    for (const path of spellings) {
      for (const round of [1, 2]) {
        const response = await visit(path);
        expect(response.status, `${path} (${round})`).toBe(302);
        expect(response.headers.get('location')).toBe('https://example.com/fiesta');
      }
    }
    expect((await visit('/Pi%C3%B1ato')).status).toBe(404);
    expect((await visit('/Pi%C3ata')).status).toBe(400); // not UTF-8: Fastify's refusal, as before
  });

  it('answers a request line with raw UTF-8 bytes with a 301 to the encoded path, which then redirects', async () => {
    await createLinkAs(t.app, cookie, { customUrl: 'Cañón', longUrl: 'https://example.com/valle' });
    const raw = await rawGet(base, Buffer.from('/Cañón?ref=qr', 'utf8'));
    expect(raw.status).toBe('HTTP/1.1 301 Moved Permanently');
    expect(raw.location).toBe('/Ca%C3%B1%C3%B3n?ref=qr');
    const followed = await visit(raw.location!);
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe('https://example.com/valle');
    // Never towards another site, nor for paths deeper than one segment.
    expect((await rawGet(base, Buffer.from('//ejemplo.com/ñ', 'utf8'))).status).toMatch(/^HTTP\/1\.1 400/);
    expect((await rawGet(base, Buffer.from('/link/ñ', 'utf8'))).status).toMatch(/^HTTP\/1\.1 400/);
  });
});
