import type { Command } from 'commander';
import { openInstall } from './cli-context';

/** `corto admin <email>`: makes an existing account an admin (it sees /admin at its next page load). */
export function registerAdminCommand(program: Command): void {
  program
    .command('admin')
    .description('Convierte en administrador la cuenta con este email')
    .argument('<email>', 'email de una cuenta existente')
    .action(async (email: string) => {
      const install = await openInstall();
      try {
        const result = await install.database.db
          .updateTable('users')
          .set({ role: 'admin' })
          .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw new Error(`No hay ninguna cuenta con el email ${email}`);
        console.log(`${email} ahora es administrador.`);
      } finally {
        await install.close();
      }
    });
}
