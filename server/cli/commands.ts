import type { Command } from 'commander';
import { registerAdminCommand } from './admin';
import { registerResetLink } from './reset-link';

/** Each command adds itself to the program (`program.command(...)`); one file per command. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [
  registerAdminCommand,
  registerResetLink,
];
