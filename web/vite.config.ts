import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// `npm run build:console` writes web/dist, which the server serves at `/`.
// `npm run console:dev` serves the sources with hot reload and sends API calls to `npm start`.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Everything inline would need 'unsafe-inline' in the CSP; small assets stay files too.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { '/v1': process.env.TESSERA_URL ?? 'http://127.0.0.1:8080' },
  },
});
