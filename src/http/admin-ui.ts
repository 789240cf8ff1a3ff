// Serves the built admin UI (admin/dist) with an SPA fallback to index.html.
import { Hono } from 'hono';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../paths.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2', '.map': 'application/json',
};

export function adminUi(dir = path.join(projectRoot, 'admin', 'dist')) {
  const ui = new Hono();
  ui.get('/*', async (c) => {
    // Unknown API paths must not fall through to the SPA's index.html.
    if (c.req.path.startsWith('/admin/v1/')) return c.notFound();
    let rel: string;
    try {
      rel = decodeURIComponent(c.req.path.replace(/^\/admin\/?/, ''));
    } catch {
      return c.notFound(); // malformed percent-encoding
    }
    const root = path.resolve(dir);
    const file = path.resolve(root, rel || 'index.html');
    // Inside the UI directory only (a sibling such as dist-x shares the prefix, not the separator).
    if (file !== root && !file.startsWith(root + path.sep)) return c.notFound();
    const exists = (await stat(file).catch(() => null))?.isFile() ?? false;
    // A missing asset is a 404: index.html served as JavaScript only hides a stale or wrong build.
    if (!exists && (rel === 'assets' || rel.startsWith('assets/'))) return c.notFound();
    const target = exists ? file : path.join(dir, 'index.html');
    const body = await readFile(target).catch(() => null);
    if (!body) return c.text('The admin UI is not built. Run `npm run build:admin`.', 503);
    const type = TYPES[path.extname(target)] ?? 'application/octet-stream';
    const cache = target.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
    // nosniff: a file is only ever what its extension says (never sniffed into HTML or script).
    return c.body(body, 200, { 'content-type': type, 'cache-control': cache, 'x-content-type-options': 'nosniff' });
  });
  return ui;
}
