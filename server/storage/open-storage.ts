import path from 'node:path';
import type { Config } from '../config';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import type { ObjectStorage } from './storage';

/**
 * The configured store: a bucket of an S3-compatible server when S3_BUCKET is set, else
 * DATA_DIR/storage. The AWS SDK is loaded only then (s3-storage.ts imports it when called):
 * importing it costs more than Fastify itself, which an embedded install should not pay at start.
 */
export async function openStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<ObjectStorage> {
  if (!config.s3) return createLocalStorage(path.join(config.dataDir, 'storage'));
  return createS3Storage(config.s3);
}
