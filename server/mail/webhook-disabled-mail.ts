import { escapeHtml } from './link-mail';
import type { MailMessage } from './mailer';

export interface WebhookDisabledMail {
  to: string;
  name: string;
  workspaceName: string;
  webhookUrl: string;
  reason: string;
  /** Where the workspace's webhooks are managed. */
  settingsUrl: string;
}

/** To a workspace's admins: Corto disabled a webhook whose deliveries kept failing. */
export function webhookDisabledMail({ to, name, workspaceName, webhookUrl, reason, settingsUrl }: WebhookDisabledMail): MailMessage {
  const lines = [
    `Hola, ${name}:`,
    '',
    `Corto ha desactivado un webhook del espacio de trabajo «${workspaceName}»: ${reason.toLowerCase()}.`,
    `Dirección del receptor: ${webhookUrl}`,
    '',
    'Los avisos pendientes se conservan. Cuando el receptor funcione, vuelve a activarlo aquí:',
    settingsUrl,
    '',
    '— Corto',
  ];
  const html = `<!doctype html>
<html lang="es"><body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
${lines
  .filter((line) => line !== '')
  .map((line) => `<p>${escapeHtml(line)}</p>`)
  .join('\n')}
</body></html>`;
  return { to, subject: `Webhook desactivado en «${workspaceName}»`, text: lines.join('\n'), html };
}
