import path from 'node:path';
import { expect, type Page } from '@playwright/test';

// For specs whose pages screenshots.spec cannot reach (their own server, an extension): the same
// folder, the same names (`{name}-{width}.png`).
const screenshotDir = path.join(import.meta.dirname, '..', 'artifacts', 'screenshots');

/** Kept to look at; and nothing sticks out sideways at this width. */
export async function keepScreenshot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 700 });
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true, animations: 'disabled' });
}
