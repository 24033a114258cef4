import type { Command } from 'commander';
import { registerAdminCommand } from './admin';
import { registerResetLink } from './reset-link';
import { registerBackup } from './backup';
import { registerPrune } from './prune';
import { registerRestore } from './restore';
import { registerToPostgres } from './to-postgres';
import { registerMigrate } from './migrate';
import { registerQrRefresh } from './qr-refresh';

/** Each command adds itself to the program (`program.command(...)`); one file per command. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [
  registerAdminCommand,
  registerResetLink,
  registerBackup,
  registerRestore,
  registerToPostgres,
  registerPrune,
  registerMigrate,
  registerQrRefresh,
];
