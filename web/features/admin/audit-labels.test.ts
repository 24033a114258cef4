import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditDetailLabel } from '@common/admin/audit-labels';

describe('the audit log in Spanish', () => {
  it('names every action and never shows a raw code', () => {
    expect(auditActionLabel('settings.signup')).toBe('Cambió el registro');
    expect(auditActionLabel('report.resolve')).toBe('Marcó una denuncia como resuelta');
    expect(auditActionLabel('workspace.delete')).toBe('Eliminó el espacio de trabajo');
    expect(auditActionLabel('domain.disable')).toBe('Desactivó el dominio');
    expect(auditActionLabel('domain.enable')).toBe('Activó el dominio');
    expect(auditActionLabel('x.y')).toBe('Otra acción (x.y)');
  });

  it('says the sign-up mode, the role and the domains in words', () => {
    expect(auditDetailLabel('settings.signup', 'open')).toBe('Abierto');
    expect(auditDetailLabel('settings.signup', 'invite')).toBe('Solo con invitación');
    expect(auditDetailLabel('settings.signup', 'closed')).toBe('Cerrado');
    expect(auditDetailLabel('user.role', 'admin')).toBe('Ahora: Administrador');
    expect(auditDetailLabel('user.role', 'user')).toBe('Ahora: Usuario');
    expect(auditDetailLabel('settings.blocked_domains', '+mal.example +peor.example -bien.example')).toBe(
      'Añadidos: mal.example, peor.example · Quitados: bien.example',
    );
    expect(auditDetailLabel('link.disable', 'Phishing')).toBe('Motivo: Phishing');
    expect(auditDetailLabel('domain.disable', 'Phishing')).toBe('Motivo: Phishing');
    expect(auditDetailLabel('user.delete', null)).toBe('');
  });
});
