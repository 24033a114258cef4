import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Page, expect } from '@playwright/test';
import { startSmtpCapture, type SmtpCapture } from '../../server/test/smtp-capture';
import { type Account, picturePng, sameOrigin, uniqueEmail } from './accounts';

// The e2e server sends no mail. The specs about proved addresses start a Corto of their own (the
// built one, on an embedded database of its own) whose SMTP_URL is a real SMTP capture they read.

export interface MailServer {
  baseURL: string;
  smtp: SmtpCapture;
  /** The confirmation link (as mailed) in the next mail to `to`. */
  linkTo(to: string): Promise<string>;
  /** Signs a new user up on this server from the page's browser (the page is then signed in there). */
  signUp(page: Page, overrides?: Partial<Account>): Promise<Account>;
  stop(): Promise<void>;
}

/** Starts it on E2E_PORT + `offset` (2 to 9: E2E_PORT + 1 is the domain specs' DNS). */
export async function startMailServer(offset: number): Promise<MailServer> {
  const port = Number(process.env.E2E_PORT ?? 4173) + offset;
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corto-e2e-mail-'));
  const smtp = await startSmtpCapture();
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_BASE_URL: baseURL,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Corto <no-reply@corto.test>',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_IP: '1000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let attempt = 0; !(await fetch(`${baseURL}/api/health`).then((r) => r.ok, () => false)); attempt++) {
    if (child.exitCode !== null || attempt > 200) throw new Error(`the mail-enabled server did not start: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const recipientOf = (mail: Awaited<ReturnType<SmtpCapture['next']>>) => (mail.to && 'text' in mail.to ? mail.to.text : '');
  return {
    baseURL,
    smtp,
    async linkTo(to) {
      const mail = await smtp.nextWhere((m) => recipientOf(m) === to && /\/auth\/verificar\?token=/.test(m.text ?? ''));
      const link = mail.text?.match(/https?:\/\/\S+\/auth\/verificar\?token=[\w-]+/)?.[0];
      expect(link, mail.text).toBeTruthy();
      return link!;
    },
    async signUp(page, overrides = {}) {
      const account: Account = { name: overrides.name ?? 'Persona con Correo', email: overrides.email ?? uniqueEmail('correo'), password: overrides.password ?? 'secreto-e2e' };
      const response = await page.request.post(`${baseURL}/api/auth/register`, {
        headers: sameOrigin,
        multipart: { ...account, profileImage: { name: 'avatar.png', mimeType: 'image/png', buffer: await picturePng() } },
      });
      expect(response.status(), await response.text()).toBe(201);
      return account;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
