import { expect, test } from './fixtures';
import { workspaceScreens } from './helpers/workspace-screens';

// Every workspace screen fits a 375 px phone: nothing wider than the screen, nothing to scroll sideways.

for (const screen of workspaceScreens) {
  test(`${screen.name} fits 375 px`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await screen.open(page);
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width, `${screen.name} is ${String(width)} px wide`).toBeLessThanOrEqual(375);
  });
}
