import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './e2e/chromium';

const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;
// The DNS server the domain specs start (dnsmasq) answers here; the server is told at start.
export const e2eDnsPort = Number(process.env.E2E_DNS_PORT ?? port + 1);
// A fresh embedded database for every run.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'corto-e2e-'));
// The specs run the operator's commands on the same folder (operator.spec's `corto admin`); the
// workers read this config again and must find the same one.
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './e2e',
  outputDir: './e2e/artifacts/results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  // A journey of a dozen steps (two mails, an axe scan) outlasted 30 s on a loaded 2-core CI machine.
  timeout: 60_000,
  // A page's first load on a shared 2-core CI machine, beside the unit suite, has taken over 5 s
  // (Playwright's default): a dashboard still showing its loading bar failed a spec that way.
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    // A trace records every test (a screencast of its page, its DOM at each step) to keep only a failed
    // one's: that recording took a third of the suite's CPU (Chromium's and Playwright's), and a CI
    // run's traces are never seen. E2E_TRACE=1 records them, to look into a failure here.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node dist/server/main.js',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: baseURL,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // Every spec signs users up from 127.0.0.1; the limits themselves are covered by the API tests.
      AUTH_RATE_LIMIT_IP: '1000',
      // stats.spec's links lead back to this server's landing page, so a visit never leaves 127.0.0.1.
      ALLOW_PRIVATE_DESTINATIONS: 'true',
      // The statistics specs visit from several places by X-Forwarded-For, as a proxy would send it.
      TRUST_PROXY: '127.0.0.1',
      // The domains' TXT records, from the dnsmasq domain-journey.spec starts on this port.
      DNS_SERVERS: `127.0.0.1:${e2eDnsPort}`,
    },
  },
});
