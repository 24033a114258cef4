import { type Page, test as base, expect } from '@playwright/test';

// Every spec imports test and expect from here. The console is listened to on every page a test
// opens: a console error (a failed request Chromium reports, a Content-Security-Policy violation,
// anything the app logs with console.error) or an uncaught exception fails the test, unless the
// test expected it and said so with consoleErrors.allow(pattern).

export interface ConsoleErrors {
  /** Lets console errors matching the pattern through: only for failures the test itself causes. */
  allow(pattern: RegExp): void;
  /** What was logged so far, allowed or not. */
  readonly seen: readonly string[];
}

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ context }, use) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [];
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() !== 'error') return;
          const { url } = message.location();
          seen.push(`console error: ${message.text()}${url ? ` (${url})` : ''}`);
        });
        page.on('pageerror', (error) => seen.push(`uncaught: ${error.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use({ allow: (pattern) => void allowed.push(pattern), seen });
      const unexpected = seen.filter((line) => !allowed.some((pattern) => pattern.test(line)));
      expect(unexpected, 'the console stays clean').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * The line Chromium logs for a request answered with an error status, e.g. the 404 of an unknown
 * short address, which is that page's very purpose.
 */
export function failedRequest(status: number, path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`status of ${status} \\(.*\\) \\(http://[^/]+${escaped}\\)$`);
}

export { expect };
