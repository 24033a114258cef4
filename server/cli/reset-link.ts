import type { Command } from 'commander';
import { findUserByEmail } from '../auth/auth.queries';
import { createResetLink } from '../account/password-reset';
import { openInstall } from './cli-context';

/** `npm run corto -- reset-link <email>`: a one-time password-reset link, for an install without SMTP_URL. */
export function registerResetLink(program: Command): void {
  program
    .command('reset-link')
    .description('Imprime un enlace de un solo uso (30 minutos) para que la cuenta elija una contraseña nueva')
    .argument('<email>', 'el email de la cuenta')
    .action(async (email: string) => {
      const install = await openInstall();
      try {
        const user = await findUserByEmail(install.database.db, email.trim());
        if (!user) throw new Error(`No hay ninguna cuenta con el email ${email}`);
        if (!install.config.publicBaseUrlSet) {
          console.error(`Aviso: PUBLIC_BASE_URL no está definida; el enlace usa ${install.config.publicBaseUrl}, que solo se abre en esta máquina. Define PUBLIC_BASE_URL como en el servidor.`);
        }
        console.log(await createResetLink(install.database.db, install.config, user.id));
      } finally {
        await install.close();
      }
    });
}
