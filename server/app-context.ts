import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import type { ObjectStorage } from './storage/storage';

/** What every capability's routes may use; built once in buildApp. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  storage: ObjectStorage;
}
