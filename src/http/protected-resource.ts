// OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoint: where an
// MCP client learns which authorization server issues tokens for promptd. Served
// at the root form and at the path-suffixed form for the resource /mcp (RFC 9728
// §3.1), which is the one our WWW-Authenticate challenges name.
import { Hono } from 'hono';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { SCOPES_SUPPORTED } from '../mcp/oauth-scopes.js';

export const PRM_PATH = '/.well-known/oauth-protected-resource';

export interface ProtectedResourceOptions {
  issuer: string;
  /** The resource URI (the tokens' audience); read per request (the port may be resolved after listen). */
  resource(): string;
}

/** Where the metadata of `resource` lives: the well-known prefix before the resource's path. */
export function resourceMetadataUrl(resource: string): string {
  const u = new URL(resource);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  return new URL(`${PRM_PATH}${path}`, u).href;
}

export function protectedResourceMetadata(opts: ProtectedResourceOptions): OAuthProtectedResourceMetadata {
  return {
    resource: opts.resource(),
    authorization_servers: [opts.issuer],
    scopes_supported: SCOPES_SUPPORTED,
    bearer_methods_supported: ['header'],
    resource_name: 'promptd MCP',
  };
}

export function protectedResourceApp(opts: ProtectedResourceOptions): Hono {
  const app = new Hono();
  const send = (c: import('hono').Context) => c.json(protectedResourceMetadata(opts), 200, { 'cache-control': 'max-age=300', 'access-control-allow-origin': '*' });
  app.get(PRM_PATH, send);
  app.get(`${PRM_PATH}/mcp`, send);
  return app;
}
