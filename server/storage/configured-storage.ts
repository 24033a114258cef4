import path from 'node:path';
import type { Config } from '../config';
import { createLocalStorage } from './local-storage';
import type { ObjectStorage } from './storage';

/** The store a configuration names: the server and the operator's commands both open it here. */
export function storageFor(config: Pick<Config, 'dataDir'>): ObjectStorage {
  return createLocalStorage(path.join(config.dataDir, 'storage'));
}
