import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { screens } from './helpers/screens';

// Serious and critical findings fail the test; minor and moderate ones are listed in the report.
const blocking = new Set(['serious', 'critical']);

for (const screen of screens) {
  test(`axe finds no serious or critical violation on ${screen.name}`, async ({ page }) => {
    await screen.open(page);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const found = results.violations.filter((violation) => blocking.has(violation.impact ?? ''));
    const summary = found.map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    const others = results.violations.filter((violation) => !blocking.has(violation.impact ?? ''));
    if (others.length > 0) {
      test.info().annotations.push({ type: 'axe-minor', description: others.map((v) => v.id).join(', ') });
    }
    expect(summary).toEqual([]);
  });
}
