import path from 'node:path';
import { test } from './fixtures';
import { liveAndWebhookScreens } from './helpers/live-and-webhook-screens';
import { mailScreens } from './helpers/mail-screens';
import { type MailServer, startMailServer } from './helpers/mail-server';
import { screens } from './helpers/screens';

// Kept as artifacts to look at, not compared against a baseline.
const outDir = path.join(import.meta.dirname, 'artifacts', 'screenshots');
const widths = [1280, 375];

for (const screen of [...screens, ...liveAndWebhookScreens]) {
  for (const width of widths) {
    test(`screenshot of ${screen.name} at ${width} px`, async ({ page, consoleErrors }) => {
      screen.consoleErrors?.forEach((pattern) => consoleErrors.allow(pattern));
      await page.setViewportSize({ width, height: 900 });
      await screen.open(page);
      await page.screenshot({
        path: path.join(outDir, `${screen.name}-${width}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    });
  }
}

// The screens of a server that sends mail: a Corto of its own, with a real SMTP capture.
test.describe('with mail', () => {
  let mail: MailServer;
  test.beforeAll(async () => (mail = await startMailServer(3)));
  test.afterAll(async () => mail?.stop());
  for (const screen of mailScreens) {
    for (const width of widths) {
      test(`screenshot of ${screen.name} at ${width} px`, async ({ page, consoleErrors }) => {
        screen.consoleErrors?.forEach((pattern) => consoleErrors.allow(pattern));
        await page.setViewportSize({ width, height: 900 });
        await screen.open(page, mail);
        await page.screenshot({ path: path.join(outDir, `${screen.name}-${width}.png`), fullPage: true, animations: 'disabled' });
      });
    }
  }
});
