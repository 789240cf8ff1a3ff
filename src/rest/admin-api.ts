// /admin/v1: the admin REST API, composed of one router per feature.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from './body-limit.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Core } from '../core/index.js';
import { adminAuth, type AuthEnv } from './auth.js';
import { ACCESS_TABLE, requireRole, type AccessRoute } from './access-table.js';
import { ProblemSchema } from './schemas.js';
import { promptsRouter } from './prompts/prompts.index.js';
import { resourcesRouter } from './resources/resources.index.js';
import { resourceTemplatesRouter } from './resource-templates/resource-templates.index.js';
import { labelsRouter } from './labels/labels.index.js';
import { includesRouter } from './includes/includes.index.js';
import { checksRouter } from './checks/checks.index.js';
import { eventsRouter } from './events/events.index.js';
import { createTicketStore } from './events/stream-tickets.js';
import type { EventStreamLimits } from './events/stream-registry.js';
import { serverInfoRouter } from './server-info/server-info.index.js';
import { webhooksRouter } from './webhooks/webhooks.index.js';
import { importRouter } from './import/import.index.js';
import { tokensRouter } from './tokens/tokens.index.js';
import { activityRouter } from './activity/activity.index.js';
import { DOCS_INIT_JS, docsPage } from './docs-page.js';
import type { RateLimitOptions } from '../http/rate-limit.js';
import { settingsRouter } from './settings/settings.index.js';
import { auditRouter } from './audit/audit.index.js';
import { usageRouter } from './usage/usage.index.js';
import type { AdminApiSchema, SchemaOf } from './admin-api-type.js';

export const ADMIN_BODY_LIMIT = 16 * 1024 * 1024;

export function createAdminApi(core: Core, opts: { bodyLimitBytes?: number; events?: Partial<EventStreamLimits>; rate?: RateLimitOptions; mcpRequired?: () => Promise<boolean> } = {}) {
  const tickets = createTicketStore();
  const auth = adminAuth(core.tokens, { tickets, eventsPath: '/admin/v1/events', rate: opts.rate, failures: core.authFailures });
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
    if (file === 'docs-init.js') return c.body(DOCS_INIT_JS, 200, { 'content-type': 'text/javascript', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    if (!['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].includes(file)) return c.notFound();
    const body = await readFile(path.join(swaggerDir, file));
    return c.body(body, 200, { 'content-type': file.endsWith('.css') ? 'text/css' : 'text/javascript', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' });
  });
  const role = requireRole('/admin/v1');
  const isPublic = (p: string) => p === '/admin/v1/openapi.json' || p.startsWith('/admin/v1/docs');
  api.use('*', async (c, next) => (isPublic(c.req.path) ? next() : auth(c, next)));
  // Which role each route needs: src/rest/access-table.ts.
  api.use('*', async (c, next) => (isPublic(c.req.path) ? next() : role(c, next)));
  api.use('*', bodyLimit(opts.bodyLimitBytes ?? ADMIN_BODY_LIMIT));
  // One chain, so the app's type carries every route (checked against AdminApiSchema below).
  const app = api
    .route('/', promptsRouter(core))
    .route('/', resourcesRouter(core))
    .route('/', resourceTemplatesRouter(core))
    .route('/', labelsRouter(core))
    .route('/', includesRouter(core))
    .route('/', checksRouter(core))
    .route('/', eventsRouter(core, { tickets, limits: opts.events }))
    .route('/', webhooksRouter(core))
    .route('/', importRouter(core))
    .route('/', tokensRouter(core, opts.mcpRequired))
    .route('/', activityRouter(core))
    .route('/', auditRouter(core))
    .route('/', settingsRouter(core))
    .route('/', usageRouter(core))
    .route('/', serverInfoRouter(core));
  documentRoles(app);
  return app;
}

/** Each operation of the document says which role it needs (a 403 response naming it), from the access table. */
function documentRoles(app: OpenAPIHono<AuthEnv>): void {
  for (const def of app.openAPIRegistry.definitions) {
    if (def.type !== 'route') continue;
    const need = ACCESS_TABLE[`${def.route.method.toUpperCase()} ${def.route.path}` as AccessRoute];
    if (!need || need === 'reader' || def.route.responses[403]) continue;
    def.route.responses = {
      ...def.route.responses,
      403: { description: `Needs the ${need} role (docs/access.md)`, content: { 'application/problem+json': { schema: ProblemSchema } } },
    };
  }
}

// The admin UI's client types come from AdminApiSchema, built from the route definitions
// alone; this fails to compile when it drifts from the routes the app really serves.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
type JsonRoutes = Omit<SchemaOf<ReturnType<typeof createAdminApi>>, '/events'>;
export type AdminApiTypeMatches = Expect<Same<JsonRoutes, AdminApiSchema>>;
