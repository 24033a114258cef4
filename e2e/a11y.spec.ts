import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { screens } from './helpers/screens';

// Moderate, serious and critical findings fail the test; minor ones are listed in the report.
const blocking = new Set(['moderate', 'serious', 'critical']);

for (const screen of screens) {
  test(`axe finds no moderate, serious or critical violation on ${screen.name}`, async ({ page, consoleErrors }) => {
    screen.consoleErrors?.forEach((pattern) => consoleErrors.allow(pattern));
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

test('every control of the landing page shows a visible focus ring when reached by keyboard', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The top bar's button appears once the session has answered; tabbing before it would skip it.
  await expect(page.getByRole('link', { name: 'Iniciar sesión' }).or(page.getByRole('button', { name: 'Iniciar sesión' }))).toBeVisible();
  const reached: string[] = [];
  for (let step = 0; step < 8; step += 1) {
    await page.keyboard.press('Tab');
    // A string script: the e2e code is type-checked without the DOM library.
    const focused = (await page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      return { name: (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || '').trim(),
               outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    })()`)) as { name: string; outline: string; width: number } | null;
    if (!focused) break;
    reached.push(focused.name);
    expect(focused.outline, `focus ring on "${focused.name}"`).not.toBe('none');
    expect(focused.width, `focus ring on "${focused.name}"`).toBeGreaterThanOrEqual(2);
  }
  expect(reached[0]).toBe('Saltar al contenido');
  expect(reached).toEqual(
    expect.arrayContaining(['Corto', 'Iniciar sesión', 'Acortar!', '¿Cómo funciona el acortador de URLs de Corto?']),
  );
});
