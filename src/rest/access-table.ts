// Which role each admin API route needs: the one table (docs/access.md prints it).
// Roles are ordered reader < editor < admin. Two decisions live elsewhere because
// they depend on the request body, not the route: moving a protected label
// (PROMPTD_PROTECTED_LABELS, default production) needs admin wherever it happens —
// label routes, activate/deactivate, promote, import — and src/core/label-policy.ts
// decides it. test/rest/roles.test.ts checks that every route of the OpenAPI document
// is in this table.
import type { MiddlewareHandler } from 'hono';
import { roleAllows, roleForbidden, type Role } from '../core/access.js';
import type { AuthEnv } from './auth.js';
import { renderError } from './problem.js';

export const ACCESS_TABLE = {
  // Reading is for everyone with a token.
  'GET /me': 'reader',
  'GET /activity': 'reader', // token, webhook and settings events: admins only (activity-service.ts)
  'GET /events': 'reader',
  'POST /events/ticket': 'reader', // a ticket opens the (read-only) event stream
  'GET /prompts': 'reader',
  'GET /prompts/{name}': 'reader',
  'GET /prompts/{name}/versions': 'reader',
  'GET /prompts/{name}/versions/{n}': 'reader',
  'GET /prompts/{name}/labels': 'reader',
  'GET /prompts/{name}/label-history': 'reader',
  'GET /prompts/{name}/dependents': 'reader',
  'GET /prompts/{name}/includes': 'reader',
  'GET /labels': 'reader',
  // Usage counts: what was served to whom (no argument values, no rendered text).
  'GET /usage': 'reader',
  'GET /usage.csv': 'reader',
  'GET /prompts/{name}/usage': 'reader',
  'POST /prompts/{name}/render': 'reader', // a preview: renders, writes nothing
  'POST /prompts/{name}/versions/{n}/check': 'reader', // renders test cases, writes nothing
  'GET /resources': 'reader',
  'GET /resources/{id}': 'reader',
  'GET /resource-templates': 'reader',
  'GET /resource-templates/{id}': 'reader',
  // Authoring: prompts, versions, unprotected labels, tags, resources, import.
  'POST /prompts': 'editor',
  'PATCH /prompts/{name}': 'editor', // rename, archive, tags
  'PUT /prompts/{name}/tags': 'editor',
  'POST /prompts/{name}/versions': 'editor',
  'PUT /prompts/{name}/active': 'editor', // production is protected by default: label policy
  'DELETE /prompts/{name}/active': 'editor', // idem
  'PUT /prompts/{name}/labels/{label}': 'editor', // a protected label: label policy
  'DELETE /prompts/{name}/labels/{label}': 'editor', // idem
  'POST /labels/{from}/promote': 'editor', // onto a protected label: label policy
  'POST /resources': 'editor',
  'PUT /resources/{id}': 'editor',
  'POST /resource-templates': 'editor',
  'PUT /resource-templates/{id}': 'editor',
  'POST /import': 'editor', // activating or moving a protected label: label policy
  // Deleting, the bin, tokens and webhooks (where events and secrets go).
  'DELETE /prompts/{name}': 'admin',
  'POST /prompts/{name}/restore': 'admin',
  'DELETE /resources/{id}': 'admin',
  'DELETE /resource-templates/{id}': 'admin',
  'GET /tokens': 'admin',
  'POST /tokens': 'admin',
  'PATCH /tokens/{id}': 'admin', // a token's own rate limits
  'DELETE /tokens/{id}': 'admin',
  // The database URL a stdio process should use (Connect page) and the bin's retention.
  'GET /server-info': 'admin',
  // The audit (who used which token, from where) and the instance's rate limits.
  'GET /audit': 'admin',
  'GET /audit.csv': 'admin',
  'GET /settings/rate-limits': 'admin', // names each token's limits in context; admin like the token list
  'PUT /settings/rate-limits': 'admin',
  'GET /webhooks': 'admin',
  'POST /webhooks': 'admin',
  'GET /webhooks/{id}': 'admin',
  'PATCH /webhooks/{id}': 'admin',
  'DELETE /webhooks/{id}': 'admin',
  'GET /webhooks/{id}/deliveries': 'admin',
  'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver': 'admin',
  'POST /webhooks/{id}/ping': 'admin',
} as const satisfies Record<string, Role>;

export type AccessRoute = keyof typeof ACCESS_TABLE;

const compiled = Object.entries(ACCESS_TABLE).map(([key, role]) => {
  const [method, path] = key.split(' ') as [string, string];
  // `{param}` is one path segment, as in the router.
  const re = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
  return { method, re, role: role as Role };
});

/**
 * The role a request needs, from the table. A route not in the table (there is none:
 * the test checks) needs admin, unless it only reads.
 */
export function roleFor(method: string, path: string): Role {
  const m = method === 'HEAD' ? 'GET' : method;
  const hit = compiled.find((r) => r.method === m && r.re.test(path));
  if (hit) return hit.role;
  return m === 'GET' ? 'reader' : 'admin';
}

/** After adminAuth: refuses a caller whose role is short of what the route needs (403 naming both roles). */
export function requireRole(base: string): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const path = c.req.path.startsWith(base) ? c.req.path.slice(base.length) || '/' : c.req.path;
    const need = roleFor(c.req.method, path);
    const role = c.get('role');
    if (!roleAllows(role, need)) return renderError(roleForbidden(need, { name: c.get('display'), role }), c);
    await next();
  };
}
