import type { Command } from 'commander';
import { registerBackup } from './backup';
import { registerPrune } from './prune';
import { registerRestore } from './restore';
import { registerToPostgres } from './to-postgres';

/** Each command adds itself to the program (`program.command(...)`); one file per command. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [registerBackup, registerRestore, registerToPostgres, registerPrune];
