import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: fromRoot('./web'),
  publicDir: fromRoot('./web/public'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@common': fromRoot('./common'),
      // Dialog scroll-lock styles through the CSSOM, not an inline <style> our CSP blocks (see the file).
      'react-style-singleton': fromRoot('./web/lib/style-singleton.ts'),
    },
  },
  build: { outDir: fromRoot('./dist/web'), emptyOutDir: true },
  server: {
    // In development the API and stored files come from the Fastify server.
    proxy: { '/api': 'http://localhost:3000', '/storage': 'http://localhost:3000' },
  },
});
