import type { ActivityEntry } from '@common/workspaces/workspace-schemas';
import { describe, expect, it } from 'vitest';
import { activitySentence } from './activity-sentences';

const entry = (action: ActivityEntry['action'], target: string, detail: string | null = null, actor = 'Ana'): ActivityEntry => ({
  id: 1,
  action,
  actor: { id: 1, name: actor },
  target,
  detail,
  at: '2026-01-02T10:00:00.000Z',
});

describe('activitySentence', () => {
  it('says which link was created, edited or deleted, by its short address', () => {
    expect(activitySentence(entry('link.created', 'promo'))).toBe('Ana creó el enlace /promo');
    expect(activitySentence(entry('link.created', 'promo', 'Rebajas de enero'))).toBe('Ana creó el enlace /promo («Rebajas de enero»)');
    expect(activitySentence(entry('link.edited', 'promo', 'title, tags'))).toBe('Ana editó el enlace /promo');
    expect(activitySentence(entry('link.edited', 'https://corto.example/promo'))).toBe('Ana editó el enlace corto.example/promo');
    expect(activitySentence(entry('link.deleted', '/abc', 'Vieja'))).toBe('Ana eliminó el enlace /abc («Vieja»)');
  });

  it('names the new role in Spanish', () => {
    expect(activitySentence(entry('member.role_changed', 'marta@ejemplo.com', 'editor', 'Luis'))).toBe(
      'Luis cambió el rol de marta@ejemplo.com a Editor',
    );
    expect(activitySentence(entry('member.role_changed', 'Marta', 'viewer → admin', 'Luis'))).toBe('Luis cambió el rol de Marta a Administrador');
    expect(activitySentence(entry('invite.created', 'marta@ejemplo.com', 'viewer', 'Luis'))).toBe('Luis invitó a marta@ejemplo.com como Lector');
    expect(activitySentence(entry('member.joined', 'marta@ejemplo.com', 'admin', 'Marta'))).toBe('Marta se unió al espacio como Administrador');
  });

  it('still reads without a role', () => {
    expect(activitySentence(entry('member.role_changed', 'marta@ejemplo.com'))).toBe('Ana cambió el rol de marta@ejemplo.com');
    expect(activitySentence(entry('member.joined', 'marta@ejemplo.com'))).toBe('Ana se unió al espacio');
  });

  it('says members removed, leaving and revoked invitations', () => {
    expect(activitySentence(entry('member.removed', 'marta@ejemplo.com'))).toBe('Ana quitó a marta@ejemplo.com del espacio');
    expect(activitySentence(entry('member.left', 'marta@ejemplo.com', null, 'Marta'))).toBe('Marta dejó el espacio');
    expect(activitySentence(entry('invite.revoked', 'marta@ejemplo.com'))).toBe('Ana revocó la invitación de marta@ejemplo.com');
  });

  it('counts imported links with the right noun', () => {
    expect(activitySentence(entry('links.imported', '1'))).toBe('Ana importó 1 enlace');
    expect(activitySentence(entry('links.imported', '12345'))).toBe('Ana importó 12.345 enlaces');
    expect(activitySentence(entry('links.imported', 'links.csv'))).toBe('Ana importó enlaces');
  });

  it('names the domain added, verified or deleted as people read it', () => {
    expect(activitySentence(entry('domain.added', 'go.empresa.es'))).toBe('Ana añadió el dominio go.empresa.es');
    expect(activitySentence(entry('domain.verified', 'empaña.es'))).toBe('Ana verificó el dominio empaña.es');
    expect(activitySentence(entry('domain.deleted', 'go.empresa.es'))).toBe('Ana eliminó el dominio go.empresa.es');
  });

  it('names the workspace when it was created or renamed', () => {
    expect(activitySentence(entry('workspace.created', 'Marketing'))).toBe('Ana creó el espacio «Marketing»');
    expect(activitySentence(entry('workspace.renamed', 'Ventas'))).toBe('Ana cambió el nombre del espacio a «Ventas»');
    expect(activitySentence(entry('workspace.renamed', 'Ventas', '«Comercial» → «Ventas» · comercial → ventas'))).toBe(
      'Ana cambió el espacio: «Comercial» → «Ventas» · comercial → ventas',
    );
  });
});
