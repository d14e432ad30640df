// Builds the portal into dist/apps/portal: index.html plus content-hashed assets under assets/,
// served by the gateway at /app/ (index.html for every /app/* path, assets immutable).
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;

export default defineConfig({
  root,
  base: '/app/',
  plugins: [react()],
  resolve: {
    alias: {
      '@platform/client': path.resolve(root, '../../libs/client/src/index.ts'),
      // Every language of the widget's texts: only the texts editor's chunk imports it (not the first load).
      '@platform/contracts/widget-texts-all': path.resolve(root, '../../libs/contracts/src/widget/texts/all.ts'),
      '@platform/contracts': path.resolve(root, '../../libs/contracts/src/index.ts'),
    },
  },
  build: {
    outDir: path.resolve(root, '../../dist/apps/portal'),
    emptyOutDir: true,
    target: 'es2022',
    // The CSP allows no inline script, so nothing may be inlined as a data: module.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { port: 5173, proxy: { '/portal': 'http://127.0.0.1:8080' } },
});
