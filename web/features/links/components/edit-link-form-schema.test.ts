import { linkMessages as m } from '@common/links/link-messages';
import type { Link } from '@common/links/link-schemas';
import { describe, expect, it } from 'vitest';
import { previewMessages } from '@common/previews/preview-messages';
import { changesOf, editFormDefaults, editLinkFormSchema, toLocalInput } from './edit-link-form-schema';

const link: Link = {
  id: 1,
  title: 'Campaña',
  originalUrl: 'https://ejemplo.com/',
  shortCode: 'abc123',
  customUrl: 'folleto',
  shortLink: 'https://corto.example/folleto',
  domain: null,
  rules: [],
  variants: null,
  redirectType: 302,
  qr: '/storage/qrs/qr-abc123.png',
  createdAt: '2026-01-01T00:00:00.000Z',
  clicks: 3,
  updatedAt: '2026-01-01T00:00:00.000Z',
  status: 'expired',
  paused: false,
  // An expired link: its date is in the past.
  expiresAt: '2026-02-01T10:30:00.000Z',
  maxClicks: null,
  limitClicks: 0,
  hasPassword: true,
  previousAddresses: [],
  scans: 1,
  forwardQuery: false,
  tags: ['verano', 'Campaña'],
  disabledCause: null,
  disabledReason: null,
  preview: null,
  workspace: 'ana', createdBy: { id: 1, name: 'Ana' },
};

describe('the edit form', () => {
  const defaults = editFormDefaults(link);
  const schema = editLinkFormSchema(defaults.expiresAt);

  it('starts from the link as it is, the date in local time to the minute, the password empty', () => {
    expect(defaults).toMatchObject({ title: 'Campaña', customUrl: 'folleto', tags: 'verano, Campaña', maxClicks: '', password: '', removePassword: false });
    expect(defaults.expiresAt).toBe(toLocalInput(link.expiresAt));
    expect(new Date(defaults.expiresAt).toISOString()).toBe(link.expiresAt);
  });

  it('lets an expired link be edited without touching its past date, which it does not send', () => {
    const values = schema.parse({ ...defaults, title: 'Otro nombre' });
    const changes = changesOf(values, defaults.expiresAt);
    expect(changes).toMatchObject({ title: 'Otro nombre', customUrl: 'folleto', paused: false, maxClicks: null });
    expect(changes).not.toHaveProperty('expiresAt');
    expect(changes).not.toHaveProperty('password');
  });

  it('refuses a new date in the past, a bad click limit and a short password with the API messages', () => {
    const result = schema.safeParse({ ...defaults, expiresAt: '2020-01-01T10:00', maxClicks: '0', password: 'abc' });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((issue) => [issue.path[0], issue.message]);
    expect(messages).toEqual(
      expect.arrayContaining([
        ['expiresAt', m.expiresAtPast],
        ['maxClicks', m.maxClicksInvalid],
        ['password', m.passwordLength],
      ]),
    );
  });

  it('sends a cleared date as null, a limit as a number, and the password only when typed or removed', () => {
    const values = schema.parse({ ...defaults, expiresAt: '', maxClicks: ' 25 ', password: 'nueva-clave' });
    expect(changesOf(values, defaults.expiresAt)).toMatchObject({ expiresAt: null, maxClicks: 25, password: 'nueva-clave' });
    const removed = schema.parse({ ...defaults, removePassword: true, password: 'ignorada' });
    expect(changesOf(removed, defaults.expiresAt).password).toBeNull();
  });

  it('sends the tags typed with commas as a list, one per case, and refuses a tag over 40 characters', () => {
    const values = schema.parse({ ...defaults, tags: ' uno, Dos ,, dos, ' });
    expect(changesOf(values, defaults.expiresAt).tags).toEqual(['uno', 'Dos']);
    expect(changesOf(schema.parse({ ...defaults, tags: '' }), defaults.expiresAt).tags).toEqual([]);
    const result = schema.safeParse({ ...defaults, tags: `bien, ${'x'.repeat(41)}` });
    expect(result.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([['tags', m.tagTooLong]]);
  });
});

describe('the preview in the edit form', () => {
  it('sends its words only when changed, blank as none, and refuses a line break with the API message', () => {
    const withPreview = { ...link, preview: { title: 'Rebajas', description: null, image: 'https://corto.example/storage/previews/pv-1.png' } };
    const defaults = editFormDefaults(withPreview);
    expect(defaults).toMatchObject({ previewTitle: 'Rebajas', previewDescription: '' });
    const schema = editLinkFormSchema(defaults.expiresAt);
    const initial = withPreview.preview;
    expect(changesOf(schema.parse(defaults), defaults.expiresAt, defaults.domain, initial)).not.toHaveProperty('preview');
    const changed = schema.parse({ ...defaults, previewTitle: ' ', previewDescription: ' Hasta el domingo ' });
    expect(changesOf(changed, defaults.expiresAt, defaults.domain, initial).preview).toEqual({ title: null, description: 'Hasta el domingo' });
    const result = schema.safeParse({ ...defaults, previewTitle: 'uno\ndos' });
    expect(result.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([['previewTitle', previewMessages.titleControl]]);
  });
});

describe('the domain in the edit form', () => {
  it('starts from the link’s domain and sends it only when changed, the instance’s own host as null', () => {
    const onDomain = { ...link, shortLink: 'https://go.empresa.es/folleto', domain: 'go.empresa.es' };
    const defaults = editFormDefaults(onDomain);
    expect(defaults.domain).toBe('go.empresa.es');
    const schema = editLinkFormSchema(defaults.expiresAt);
    expect(changesOf(schema.parse(defaults), defaults.expiresAt, defaults.domain)).not.toHaveProperty('domain');
    expect(changesOf(schema.parse({ ...defaults, domain: '' }), defaults.expiresAt, defaults.domain).domain).toBeNull();
    expect(changesOf(schema.parse({ ...defaults, domain: 'xn--espaa-rta.es' }), defaults.expiresAt, defaults.domain).domain).toBe('xn--espaa-rta.es');
  });

  it('is the instance’s own host for a link from a server that does not send one', () => {
    const defaults = editFormDefaults(link);
    expect(defaults.domain).toBe('');
    expect(changesOf(editLinkFormSchema(defaults.expiresAt).parse(defaults), defaults.expiresAt, defaults.domain)).not.toHaveProperty('domain');
  });
});

describe('the destination in the edit form', () => {
  it('reads as the card shows it, and saves as the same address', () => {
    const stored = 'https://xn--espaa-rta.es/%C3%91oquis?q=caf%C3%A9';
    const defaults = editFormDefaults({ ...link, originalUrl: stored });
    expect(defaults.longUrl).toBe('https://españa.es/Ñoquis?q=café');
    const parsed = editLinkFormSchema('').parse({ ...defaults, expiresAt: '' });
    expect(parsed.longUrl).toBe(stored);
  });

  it('stays as stored when the readable form would mean another address', () => {
    const stored = 'https://ejemplo.com/100%25';
    expect(editFormDefaults({ ...link, originalUrl: stored }).longUrl).toBe(stored);
  });
});
