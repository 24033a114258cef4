import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on a loopback port that keeps every message it is sent, parsed. */
export interface SmtpCapture {
  url: string;
  messages: ParsedMail[];
  /** The next message to arrive (or the first not yet taken), within the wait. */
  next(timeoutMs?: number): Promise<ParsedMail>;
  /** The next message (not yet taken) that `matches`, within the wait; those before it are taken too. */
  nextWhere(matches: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: ParsedMail[] = [];
  let taken = 0;
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const wake of waiting.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const capture: SmtpCapture = {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length <= taken) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no e-mail arrived');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return messages[taken++]!;
    },
    async nextWhere(matches, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = await capture.next(Math.max(1, deadline - Date.now()));
        if (matches(mail)) return mail;
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return capture;
}
