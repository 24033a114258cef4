import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: fromRoot('./web'),
  publicDir: fromRoot('./web/public'),
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@common': fromRoot('./common') } },
  build: { outDir: fromRoot('./dist/web'), emptyOutDir: true },
  server: {
    // In development the API and stored files come from the Fastify server.
    proxy: { '/api': 'http://localhost:3000', '/storage': 'http://localhost:3000' },
  },
});
