import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';
import { registerUser } from '../test/test-users';
import { personalActor } from '../workspaces/workspaces.test-support';
import type { LinkActor } from './link-actor';
import { createLink } from './create-link';

/** Hands out the given codes in order, like the random generator would. */
const codes = (...sequence: string[]) => () => {
  const next = sequence.shift();
  if (!next) throw new Error('no more codes');
  return next;
};

describe.each(testDialects)('createLink short codes on %s', (dialect) => {
  let t: TestApp;
  let actor: LinkActor;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    actor = await personalActor(t.database.db, (await registerUser(t.app)).user.id);
  });
  afterEach(async () => t.close());

  const input = (customUrl: string | null = null) => ({ title: 't', longUrl: 'https://example.com/', customUrl });

  it('draws again when a code is taken as a code, as an alias in any case, or is a reserved path', async () => {
    const context = t.app.appContext;
    await createLink(context, actor, input(), codes('abc123'));
    await createLink(context, actor, input('Alias9'), codes('zzz999'));
    const row = await createLink(context, actor, input(), codes('abc123', 'alias9', 'static', 'q1w2e3'));
    expect(row.short_url).toBe('q1w2e3');
    expect(row.qr).toBe('qr-q1w2e3.png');
  });

  it('gives up with an error, not a duplicate, when every draw is taken', async () => {
    const context = t.app.appContext;
    await createLink(context, actor, input(), codes('abc123'));
    await expect(createLink(context, actor, input(), () => 'abc123')).rejects.toThrow(/No free short code/);
    const count = await t.database.db.selectFrom('urls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});
