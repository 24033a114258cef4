// The audit log in the operator's words: each action's label and its detail in Spanish (the log
// keeps codes, so the words can change without rewriting rows).

const actionLabels: Record<string, string> = {
  'user.disable': 'Desactivó la cuenta',
  'user.enable': 'Activó la cuenta',
  'user.role': 'Cambió el rol',
  'user.delete': 'Eliminó la cuenta',
  'link.disable': 'Desactivó el link',
  'link.enable': 'Activó el link',
  'domain.disable': 'Desactivó el dominio',
  'domain.enable': 'Activó el dominio',
  'workspace.delete': 'Eliminó el espacio de trabajo',
  'settings.signup': 'Cambió el registro',
  'settings.blocked_domains': 'Cambió los dominios bloqueados',
  'invite.create': 'Creó una invitación',
  'report.resolve': 'Marcó una denuncia como resuelta',
  'report.dismiss': 'Descartó una denuncia',
  'report.reopen': 'Reabrió una denuncia',
};

const signupLabels: Record<string, string> = { open: 'Abierto', invite: 'Solo con invitación', closed: 'Cerrado' };
const roleLabels: Record<string, string> = { admin: 'Administrador', user: 'Usuario' };

/** An action's label; an unknown one (a newer release's) as 'Otra acción (code)'. */
export function auditActionLabel(action: string): string {
  return actionLabels[action] ?? `Otra acción (${action})`;
}

/** The detail as a sentence: the new sign-up mode or role in words, domains added and removed. */
export function auditDetailLabel(action: string, detail: string | null): string {
  if (detail === null || detail === '') return '';
  if (action === 'settings.signup') return signupLabels[detail] ?? detail;
  if (action === 'user.role') return roleLabels[detail] ? `Ahora: ${roleLabels[detail]}` : detail;
  if (action === 'settings.blocked_domains') {
    const parts = detail.split(' ').filter(Boolean);
    const added = parts.filter((part) => part.startsWith('+')).map((part) => part.slice(1));
    const removed = parts.filter((part) => part.startsWith('-')).map((part) => part.slice(1));
    return [added.length ? `Añadidos: ${added.join(', ')}` : '', removed.length ? `Quitados: ${removed.join(', ')}` : '']
      .filter(Boolean)
      .join(' · ');
  }
  if (action === 'link.disable' || action === 'domain.disable' || action === 'user.disable' || action.startsWith('report.')) return `Motivo: ${detail}`;
  return detail;
}
