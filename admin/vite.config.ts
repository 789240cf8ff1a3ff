import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
// During `vite dev`, API and MCP calls go to a running `promptd serve`.
const target = process.env.PROMPTD_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root,
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: {
      '/admin/v1': { target, changeOrigin: false },
      '/mcp': { target, changeOrigin: false },
    },
  },
});
