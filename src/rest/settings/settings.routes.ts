import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { body, errorResponses, json } from '../schemas.js';

const tags = ['Settings'];
const perMinute = (what: string) => z.number().int().min(1).max(1_000_000).meta({ description: `${what} per minute, per token (or per client address when unauthenticated), per instance` });

export const RateLimitsSchema = z
  .object({
    mcpPerMinute: perMinute('MCP requests over HTTP (Streamable HTTP and legacy SSE); a token\'s mcpRatePerMinute overrides it'),
    adminWritesPerMinute: perMinute('admin API writes (POST, PUT, PATCH, DELETE); a token\'s writeRatePerMinute overrides it'),
    adminReadsPerMinute: perMinute('admin API and read API (/v1) reads'),
  })
  .strict()
  .meta({ id: 'RateLimits' });

// Admin-only: these routes sit behind adminAuth (src/rest/auth.ts); the role check that
// refuses non-admin tokens belongs there, next to the read API's readAuth.
export const get = createRoute({
  method: 'get', path: '/settings/rate-limits', tags, summary: 'The instance-wide rate limits (docs/rate-limits.md)',
  responses: { 200: json(RateLimitsSchema, 'The limits in force'), 401: errorResponses[401] },
});
export const put = createRoute({
  method: 'put', path: '/settings/rate-limits', tags, summary: 'Replace the rate limits; every instance applies them without a restart',
  request: body(RateLimitsSchema),
  responses: { 200: json(RateLimitsSchema, 'The limits now in force'), 401: errorResponses[401], 422: errorResponses[422] },
});
