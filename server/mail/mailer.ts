import type { Transporter } from 'nodemailer';
import type { Config } from '../config';

// Corto's outgoing mail (today: password-reset links), through nodemailer and the SMTP server of
// SMTP_URL. Without SMTP_URL there is no mailer, and the features that need one say so.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer | undefined {
  if (!config.smtpUrl) return undefined;
  // The URL carries host, port, user and password, and nodemailer's own options in its query
  // (?pool=true, ?tls.rejectUnauthorized=false...). Sending happens after the answer, so
  // nodemailer's own timeouts only hold a background task.
  const { smtpUrl, mailFrom } = config;
  // nodemailer is read with the first message: most starts send none.
  let transport: Promise<Transporter> | undefined;
  const opened = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl, { from: mailFrom })));
  return {
    async send(message) {
      await (await opened()).sendMail(message);
    },
    close: () => void transport?.then((open) => open.close()),
  };
}
