import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../links/links.test-support';
import { type Install, openServedInstall, runCli, seedLinks, storagePath } from './cli.test-support';

// An install that ran without PUBLIC_BASE_URL, then got it: its stored QR codes named
// http://localhost until `corto qr-refresh` draws them again.
describe('npm run corto -- qr-refresh', { timeout: 60_000 }, () => {
  let folder: string;
  let install: Install;
  let qrs: string[];
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'corto-qr-refresh-'));
    install = await openServedInstall(folder);
    qrs = (await seedLinks(install.app, 3)).links.map((link) => path.join(folder, storagePath(link.qr)));
  });
  afterAll(async () => {
    await install.close();
    await rm(folder, { recursive: true, force: true });
  });

  const encoded = async () => Promise.all(qrs.map(async (file) => decodeQr(await readFile(file))));

  it('refuses while PUBLIC_BASE_URL is unset (the codes would name localhost)', async () => {
    const result = await runCli(['qr-refresh'], { DATA_DIR: folder });
    expect(result.code).toBe(1);
    expect(result.output).toContain('PUBLIC_BASE_URL no está definida');
  });

  it('draws every stored QR again on the new address, beside the running server', async () => {
    expect((await encoded()).every((text) => text?.startsWith('http://localhost:3000/'))).toBe(true);
    const result = await runCli(['qr-refresh'], { DATA_DIR: folder, PUBLIC_BASE_URL: 'https://corto.example' });
    expect(result).toMatchObject({ code: 0, output: expect.stringContaining('3 códigos QR redibujados con https://corto.example') });
    const texts = await encoded();
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).toMatch(/^https:\/\/corto\.example\/\w+\?qr=1$/);
  });
});
