import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ROLES } from '../../core/access.js';
import { errorResponses, json } from '../schemas.js';

export const ServerInfoSchema = z
  .object({
    database: z.object({
      provider: z.enum(['sqlite', 'postgresql']),
      url: z.string().describe('DATABASE_URL for a stdio process on this machine: SQLite as an absolute file: URL, PostgreSQL without its password'),
    }),
    deletedRetentionDays: z.number().int().describe('Days a deleted prompt stays in the bin, restorable, before it is purged (PROMPTD_DELETED_RETENTION_DAYS)'),
  })
  .openapi('ServerInfo');

export const get = createRoute({
  method: 'get', path: '/server-info', tags: ['Server'], summary: 'What a stdio MCP process needs to share this server’s database',
  responses: { 200: json(ServerInfoSchema, 'Server information'), 401: errorResponses[401] },
});

export const MeSchema = z
  .object({
    actor: z.string().describe('how the change log names this caller: `token:<name>#<id>`, or `admin` for PROMPTD_ADMIN_TOKEN'),
    tokenId: z.number().int().nullable().describe('null for PROMPTD_ADMIN_TOKEN'),
    role: z.enum(ROLES).describe('reader, editor or admin (docs/access.md)'),
  })
  .openapi('Me');

export const me = createRoute({
  method: 'get', path: '/me', tags: ['Server'], summary: 'Who this token is and its role (the admin UI hides what the role cannot do)',
  responses: { 200: json(MeSchema, 'The caller'), 401: errorResponses[401] },
});
