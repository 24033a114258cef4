import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupInstall } from '../cli/backup';
import { agents, clickCount } from '../redirect/redirect.test-support';
import { redirectLoad } from '../reliability/redirect-load';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerUser, sameOrigin } from '../test/test-users';
import { createLinkAs, postLink } from './links.test-support';

// An embedded install under a full click load, with a backup running: the click writer's thread
// writes back-to-back batches on a connection of its own (the backlog heavy traffic leaves: the
// queue is kept topped up, so the writer holds the write lock most of the time, as after the
// trial's burst), visitors keep being redirected, and the backup reads the file from a third. The API's writes must wait for the write lock, never answer 503 (SQLite
// refuses at once, whatever busy_timeout says, a transaction that read before it wrote while
// another connection holds the lock or wrote since).
describe('writes beside a busy writer (SQLite)', () => {
  let t: TestApp;
  let backups: string;
  afterEach(async () => {
    await t.close();
    await rm(backups, { recursive: true, force: true });
  });

  it('edits an alias and creates links while clicks are written and a backup runs, every one answered', async () => {
    t = await createTestApp('sqlite', { LINKS_PER_HOUR: '0', CLICK_FLUSH_MS: '10' });
    backups = await mkdtemp(path.join(tmpdir(), 'corto-backups-'));
    const { cookie } = await registerUser(t.app);
    const loaded = await createLinkAs(t.app, cookie, { title: 'Cargado' });
    const edited = await createLinkAs(t.app, cookie, { title: 'Editado' });
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    await t.app.appContext.clickWriter.ready();

    const load = redirectLoad(() => `${base}/${loaded.shortCode}`, 4);
    let backingUp = true;
    let backupsMade = 0;
    const backupLoop = (async () => {
      while (backingUp) {
        await backupInstall(t.config.dataDir, path.join(backups, `copia-${backupsMade}.tar`));
        backupsMade += 1;
      }
    })();

    const { clickWriter } = t.app.appContext;
    let backlog = 0;
    const keepBusy = () => {
      // Clicks as a burst of visitors leaves them queued: a few thousand addresses, real agents.
      for (; clickWriter.stats().queued < 12_000; backlog += 1) {
        clickWriter.record({ urlId: loaded.id, at: Date.now(), ip: `10.0.${(backlog >> 8) & 15}.${backlog & 255}`, userAgent: agents.desktop, referrer: undefined });
      }
    };
    const answers: string[] = [];
    let writerBusyAtEnd = false;
    try {
      keepBusy();
      // Clicks being written before the first write.
      while (clickWriter.stats().batches < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      for (let i = 0; i < 12; i += 1) {
        keepBusy();
        const patch = await t.app.inject({
          method: 'PATCH',
          url: `/api/links/${edited.id}`,
          headers: { cookie, ...sameOrigin },
          payload: { customUrl: `movido-${i}`, title: `Editado ${i}` },
        });
        answers.push(`PATCH ${patch.statusCode} ${patch.statusCode === 200 ? '' : patch.body}`);
        const post = await postLink(t.app, cookie, { title: `Nuevo ${i}`, longUrl: `https://example.com/${i}`, customUrl: `nuevo-${i}` });
        answers.push(`POST ${post.statusCode} ${post.statusCode === 201 ? '' : post.body}`);
      }
      writerBusyAtEnd = clickWriter.stats().queued > 0;
    } finally {
      backingUp = false;
      await load.stop();
      await backupLoop;
    }

    expect(answers.filter((answer) => !/^(PATCH 200|POST 201) $/.test(answer))).toEqual([]);
    expect(backupsMade).toBeGreaterThanOrEqual(1);
    expect(writerBusyAtEnd).toBe(true);
    // The clicks are all there too: the writer waited for the API's writes as they waited for it.
    await clickWriter.flush();
    expect(load.tally.redirects).toBeGreaterThan(0);
    expect(await clickCount(t.database.db, loaded.id)).toBe(load.tally.redirects + backlog);
    const link = (await t.app.inject({ method: 'GET', url: `/api/links/${edited.id}`, headers: { cookie } })).json().link;
    expect(link.customUrl).toBe('movido-11');
  }, 120_000);
});
