import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  test: {
    // e2e/*.spec.ts belong to Playwright, not Vitest.
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'extension/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // One migrated SQLite database that every SQLite test app is copied from.
    globalSetup: ['server/test/global-setup.ts'],
    // PostgreSQL test apps of one file reuse each other's emptied schemas.
    setupFiles: ['server/test/per-file-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
