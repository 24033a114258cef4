import nodemailer from 'nodemailer';
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
  const transport = nodemailer.createTransport(config.smtpUrl, { from: config.mailFrom });
  return {
    async send(message) {
      await transport.sendMail(message);
    },
    close: () => transport.close(),
  };
}
