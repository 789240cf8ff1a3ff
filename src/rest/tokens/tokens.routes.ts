import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ROLES, TOKEN_KINDS } from '../../core/access.js';
import { LabelNameSchema, TagSchema, TokenNameSchema } from '../../core/schemas.js';
import { IdParamSchema, body, errorResponses, json } from '../schemas.js';

const tags = ['Tokens'];
const conflict = { description: 'Conflict', content: errorResponses[422].content };

// Two kinds of token (docs/access.md): admin-API tokens with a role, MCP client tokens with a scope.
export const TokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string().meta({ description: 'unique; the change log names the token as `token:<name>#<id>`' }),
    prefix: z.string().meta({ description: 'the first characters of the token, to tell tokens apart; never the token itself' }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().meta({ description: 'recorded at most once a minute per token' }),
    revokedAt: z.string().nullable(),
    mcpRatePerMinute: z.number().int().nullable().meta({ description: "this token's MCP requests per minute; null: the instance setting (GET /settings/rate-limits)" }),
    writeRatePerMinute: z.number().int().nullable().meta({ description: "this token's admin writes per minute; null: the instance setting" }),
    current: z.boolean().meta({ description: 'true for the token this request was made with' }),
    kind: z.enum(TOKEN_KINDS).meta({ description: '`admin`: the admin and read APIs; `mcp`: MCP clients (/mcp); `app`: applications on the read API (/v1), one label and optionally some tags. Only ever one' }),
    role: z.enum(ROLES).nullable().meta({ description: 'admin tokens: reader, editor or admin; null for MCP and app tokens' }),
    label: z.string().nullable().meta({ description: 'MCP and app tokens: the release label whose view the client sees; null for admin tokens' }),
    tags: z.array(z.string()).nullable().meta({ description: 'MCP and app tokens: only prompts carrying one of these tags; null: every prompt of the label' }),
  })
  .meta({ id: 'Token' });

export const CreatedTokenSchema = TokenSchema.extend({
  token: z.string().meta({ description: 'the token: shown in this response only, store it now' }),
}).meta({ id: 'CreatedToken' });

const rate = (what: string) => z.number().int().min(1).max(1_000_000).nullable().optional().meta({ description: `${what} per minute for this token (docs/rate-limits.md); null or absent: the instance setting` });

export const TokenInputSchema = z
  .object({
    name: TokenNameSchema,
    kind: z.enum(TOKEN_KINDS).optional().meta({ description: 'admin (default), mcp or app (the read API /v1 only)' }),
    role: z.enum(ROLES).optional().meta({ description: 'admin tokens only; default admin' }),
    label: LabelNameSchema.optional().meta({ description: 'MCP and app tokens only; default production' }),
    tags: z.array(TagSchema).min(1).max(20).optional().meta({ description: 'MCP and app tokens only; default: every prompt of the label' }),
    mcpRatePerMinute: rate('MCP requests'),
    writeRatePerMinute: rate('admin writes'),
  })
  .strict()
  .meta({ id: 'TokenInput' });

export const TokenUpdateSchema = z
  .object({ mcpRatePerMinute: rate('MCP requests'), writeRatePerMinute: rate('admin writes') })
  .strict()
  .meta({ id: 'TokenUpdate' });

export const list = createRoute({
  method: 'get', path: '/tokens', tags, summary: 'List admin API and MCP client tokens (never their values or hashes)',
  responses: {
    200: json(z.object({
      items: z.array(TokenSchema),
      nextCursor: z.null(),
      mcpAnonymous: z.boolean().meta({ description: 'true while /mcp admits clients without a token (no MCP client token, no PROMPTD_MCP_TOKEN, no OAuth): creating the first MCP token ends that for every client, connected ones included' }),
    }).meta({ id: 'TokenList' }), 'Every token, oldest first'),
    401: errorResponses[401],
  },
});
export const create = createRoute({
  method: 'post', path: '/tokens', tags, summary: 'Create a token (the response carries it, shown once)',
  request: body(TokenInputSchema),
  responses: { 201: json(CreatedTokenSchema, 'Created'), 401: errorResponses[401], 404: { ...errorResponses[404], description: "An MCP token's unknown label (the problem names the known labels)" }, 409: conflict, 422: errorResponses[422] },
});
export const update = createRoute({
  method: 'patch', path: '/tokens/{id}', tags, summary: "Change a token's own rate limits (null: back to the instance setting)",
  request: { params: IdParamSchema, ...body(TokenUpdateSchema) },
  responses: { 200: json(TokenSchema, 'Updated'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});
export const revoke = createRoute({
  method: 'delete', path: '/tokens/{id}', tags, summary: 'Revoke a token at once (revoking the one in use signs this client out)',
  request: { params: IdParamSchema },
  responses: { 200: json(TokenSchema, 'Revoked'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404], 409: conflict },
});
