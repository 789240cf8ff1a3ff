// /v1: the read API for applications that do not speak MCP. Served definitions and
// renders by label or version with strong ETags, and the changes to follow. Its own
// OpenAPI document (/v1/openapi.json): application developers need none of the admin API.
import type { RateLimitOptions } from '../../http/rate-limit.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import { readAuth, type AuthEnv } from '../auth.js';
import { bodyLimit } from '../body-limit.js';
import type { EventStreamLimits } from '../events/stream-registry.js';
import { servedRouter } from './served/served.index.js';
import { changesRouter } from './changes/changes.index.js';

/** A render's body holds argument values only; their rendered size is capped by the core (LIMITS.renderedArgumentChars). */
export const READ_BODY_LIMIT = 4 * 1024 * 1024;

export interface ReadApiOptions {
  events?: Partial<EventStreamLimits>;
  bodyLimitBytes?: number;
  /** Told of every definition or render served through a label (metrics: prompts served by label). */
  onServed?: (label: string) => void;
  /** Rate limits (docs/rate-limits.md): every /v1 request counts as a read. */
  rate?: RateLimitOptions;
}

export function createReadApi(core: Core, opts: ReadApiOptions = {}) {
  const api = new OpenAPIHono<AuthEnv>();
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'promptd read API', version: '1',
      description: 'Served prompt definitions and renders for applications, with strong ETags (cache, then revalidate with If-None-Match), and the changes to follow.',
    },
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
  });
  const auth = readAuth(core.tokens, { rate: opts.rate, failures: core.authFailures });
  // The document is public; every route needs a token.
  api.use('*', async (c, next) => (c.req.path === '/v1/openapi.json' ? next() : auth(c, next)));
  api.use('*', bodyLimit(Math.min(opts.bodyLimitBytes ?? READ_BODY_LIMIT, READ_BODY_LIMIT)));
  return api.route('/', servedRouter(core, { onServed: opts.onServed })).route('/', changesRouter(core, { limits: opts.events }));
}
