import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startDatabaseThread } from '../db/database-thread';
import { DATABASE_THREAD_LIMITS } from './heap-settings';

describe('the database threads’ heaps', () => {
  it('start with the small young generation the settings give them', async () => {
    // The QR thread starts as the database threads do, and needs nothing to start.
    const thread = startDatabaseThread(new URL('../links/qr-thread.ts', import.meta.url).href, 'qr-worker', undefined);
    try {
      await once(thread, 'online');
      expect(DATABASE_THREAD_LIMITS.maxYoungGenerationSizeMb).toBeGreaterThan(0);
      expect(thread.resourceLimits?.maxYoungGenerationSizeMb).toBe(DATABASE_THREAD_LIMITS.maxYoungGenerationSizeMb);
    } finally {
      await thread.terminate();
    }
  });
});
