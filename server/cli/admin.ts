import type { Command } from 'commander';
import { CLI_ACTOR } from '../admin/admin-emails';
import { recordAudit } from '../admin/audit-log';
import { openInstall } from './cli-context';

/**
 * `corto admin <email>`: makes an existing account an admin (it sees /admin at its next page load).
 * The operator at the shell is the proof ADMIN_EMAILS otherwise asks of an address (a verified e-mail),
 * so this works whether or not the address is verified or listed.
 */
export function registerAdminCommand(program: Command): void {
  program
    .command('admin')
    .description('Convierte en administrador la cuenta con este email')
    .argument('<email>', 'email de una cuenta existente')
    .action(async (email: string) => {
      const install = await openInstall();
      try {
        const { db } = install.database;
        const user = await db
          .updateTable('users')
          .set({ role: 'admin' })
          .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
          .returning('email')
          .executeTakeFirst();
        if (!user) throw new Error(`No hay ninguna cuenta con el email ${email}`);
        await recordAudit(db, CLI_ACTOR, 'user.role', user.email, 'admin');
        console.log(`${email} ahora es administrador.`);
      } finally {
        await install.close();
      }
    });
}
