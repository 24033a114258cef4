import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../bench/lib/processes';
import { createTestApp, type TestApp, testDialects } from '../test/test-app';

// deploy/prometheus (alert rules and their unit tests) and deploy/grafana (a dashboard): checked by
// Prometheus' own promtool where it is installed (Debian's `prometheus` package), and held to the
// metrics the server really gives, so a renamed metric cannot leave an alert that never fires.

const rules = path.join(repoRoot, 'deploy/prometheus/corto-alerts.yml');
const ruleTests = path.join(repoRoot, 'deploy/prometheus/corto-alerts.test.yml');
const dashboard = path.join(repoRoot, 'deploy/grafana/corto-dashboard.json');

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
if (!hasPromtool) console.warn('monitoring-files.test: promtool is not installed (apt-get install -y prometheus), the rules not checked by it');

describe.skipIf(!hasPromtool)('the Prometheus alert rules, by promtool', () => {
  it('are valid', () => {
    const checked = spawnSync('promtool', ['check', 'rules', rules], { encoding: 'utf8' });
    expect(checked.status, `${checked.stdout}${checked.stderr}`).toBe(0);
  });

  it('fire as their unit tests expect (an instance down, clicks shed, the click writer behind)', () => {
    const tested = spawnSync('promtool', ['test', 'rules', ruleTests], { encoding: 'utf8' });
    expect(tested.status, `${tested.stdout}${tested.stderr}`).toBe(0);
  });
});

/** The metric names an expression text uses (the server's own and Node's defaults). */
const metricNames = (text: string) => new Set(text.match(/\b(corto|nodejs|process)_[a-z0-9_]+\b/g) ?? []);

describe.each(testDialects)('the alert rules and the dashboard on %s', (dialect) => {
  let t: TestApp;
  const exposed = new Set<string>();
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exposed.add(name!);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(`${name}${suffix}`);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('use only metrics the server gives', () => {
    const dashboardExpressions = (JSON.parse(readFileSync(dashboard, 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> }).panels
      .flatMap((panel) => panel.targets.map((target) => target.expr))
      .join('\n');
    const used = [...metricNames(readFileSync(rules, 'utf8')), ...metricNames(dashboardExpressions)];
    expect(used.length).toBeGreaterThan(10);
    // PostgreSQL's pool exists only there.
    const expected = used.filter((name) => dialect === 'postgres' || !name.startsWith('corto_db_pool_'));
    expect(expected.filter((name) => !exposed.has(name))).toEqual([]);
  });
});
