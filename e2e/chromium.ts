import { existsSync } from 'node:fs';

// Debian's Chromium: the project never downloads a browser of its own.
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumMissingMessage(): string | undefined {
  if (existsSync(chromiumPath)) return undefined;
  return [
    `Chromium no está en ${chromiumPath}; las pruebas de extremo a extremo lo necesitan.`,
    'Instálalo con:  sudo apt-get update && sudo apt-get install -y chromium',
    'o indica otro ejecutable con CHROMIUM_PATH=/ruta/a/chromium.',
  ].join('\n');
}
