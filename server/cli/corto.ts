// The operator's command line: `npm run corto -- <command> ...`. One file per command, listed in
// commands.ts; each registers itself on the program and opens what it needs through cli-context.ts.
import { Command, CommanderError } from 'commander';
import { commands } from './commands';

const program = new Command('corto')
  .description('Órdenes de mantenimiento de Corto')
  .showHelpAfterError()
  .exitOverride();

for (const register of commands) register(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
