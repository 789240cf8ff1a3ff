// /admin/v1: the admin REST API, composed of one router per feature.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from './body-limit.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Core } from '../core/index.js';
import { adminAuth, type AuthEnv } from './auth.js';
import { promptsRouter } from './prompts/prompts.index.js';
import { resourcesRouter } from './resources/resources.index.js';
import { resourceTemplatesRouter } from './resource-templates/resource-templates.index.js';
import { eventsRouter } from './events/events.index.js';
import { docsPage } from './docs-page.js';

export const ADMIN_BODY_LIMIT = 16 * 1024 * 1024;

export function createAdminApi(core: Core, opts: { bodyLimitBytes?: number } = {}) {
  const api = new OpenAPIHono<AuthEnv>();
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  // The document and its docs page are public; every API route needs a token.
  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'promptd admin API', version: '1', description: 'Manage prompts, versions and resources served over MCP.' },
    servers: [{ url: '/admin/v1' }],
    security: [{ bearer: [] }],
  });
  const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  api.get('/docs', (c) => c.html(docsPage('/admin/v1/openapi.json', '/admin/v1/docs/assets')));
  api.get('/docs/assets/:file{[a-z0-9.-]+\\.(js|css)}', async (c) => {
    const file = c.req.param('file');
    if (!['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].includes(file)) return c.notFound();
    const body = await readFile(path.join(swaggerDir, file));
    return c.body(body, 200, { 'content-type': file.endsWith('.css') ? 'text/css' : 'text/javascript', 'cache-control': 'public, max-age=3600' });
  });
  api.use('*', async (c, next) => {
    if (c.req.path === '/admin/v1/openapi.json' || c.req.path.startsWith('/admin/v1/docs')) return next();
    return adminAuth(core.tokens, { queryTokenPaths: /\/events$/ })(c, next);
  });
  api.use('*', bodyLimit(opts.bodyLimitBytes ?? ADMIN_BODY_LIMIT));
  api.route('/', promptsRouter(core));
  api.route('/', resourcesRouter(core));
  api.route('/', resourceTemplatesRouter(core));
  api.route('/', eventsRouter(core));
  return api;
}
