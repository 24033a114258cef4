import { workspaceMessages } from '@common/workspaces/workspace-messages';
import { describe, expect, it } from 'vitest';
import { previewSlug, workspaceFormSchema } from './workspace-form-schema';

describe('workspaceFormSchema', () => {
  it('takes a name with the slug left empty', () => {
    expect(workspaceFormSchema.parse({ name: ' Marketing ', slug: '  ' })).toEqual({ name: 'Marketing', slug: '' });
  });

  it('says in Spanish what is wrong with a name or a slug', () => {
    const result = workspaceFormSchema.safeParse({ name: '', slug: 'a--b' });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((issue) => issue.message);
    expect(messages).toContain(workspaceMessages.nameRequired);
    expect(messages).toContain(workspaceMessages.slugInvalid);
  });

  it('refuses a reserved path as a slug', () => {
    const result = workspaceFormSchema.safeParse({ name: 'Panel', slug: 'dashboard' });
    expect(result.error?.issues.map((issue) => issue.message)).toContain(workspaceMessages.slugReserved);
  });
});

describe('previewSlug', () => {
  it('shows the slug typed, in lower case', () => {
    expect(previewSlug({ name: 'Marketing', slug: 'Mkt-2026' })).toBe('mkt-2026');
  });

  it('shows the slug made from the name when none is typed', () => {
    expect(previewSlug({ name: 'Equipo de Diseño', slug: '' })).toBe('equipo-de-diseno');
  });
});
