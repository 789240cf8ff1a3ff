// Builds the admin UI (admin/) to admin/dist when it exists; the server serves it at /admin.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = path.join(root, 'admin', 'vite.config.ts');
if (!existsSync(config)) {
  console.log('admin: no admin/vite.config.ts yet; skipping UI build');
} else {
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', config], { cwd: path.join(root, 'admin'), stdio: 'inherit' });
}
