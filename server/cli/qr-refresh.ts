import type { Command } from 'commander';
import { refreshStoredQrs } from '../links/qr-refresh';
import { openStorage } from '../storage/open-storage';
import { openInstall } from './cli-context';

/**
 * `corto qr-refresh`: every stored QR code drawn again on PUBLIC_BASE_URL as it is now, after it
 * changed (or was unset: the codes then named http://localhost). Beside a running server; codes
 * already printed keep the address they were printed with.
 */
export function registerQrRefresh(program: Command): void {
  program
    .command('qr-refresh')
    .description('Vuelve a dibujar todos los códigos QR guardados con el PUBLIC_BASE_URL actual (tras cambiarlo)')
    .action(async () => {
      const install = await openInstall();
      try {
        const { config } = install;
        if (!config.publicBaseUrlSet) {
          throw new Error('PUBLIC_BASE_URL no está definida: los códigos QR nombrarían http://localhost. Defínela como en el servidor y repite la orden');
        }
        let printed = Date.now();
        const remade = await refreshStoredQrs({
          db: install.database.db,
          storage: await openStorage(config),
          config,
          all: true,
          onRemade: (count) => {
            if (Date.now() - printed < 1000) return;
            printed = Date.now();
            console.error(`${count} códigos QR redibujados...`);
          },
        });
        console.log(`${remade} códigos QR redibujados con ${config.publicBaseUrl}.`);
      } finally {
        await install.close();
      }
    });
}
