import type { RouteHandler } from '@hono/zod-openapi';
import type { Core } from '../../core/index.js';
import type { TokenInfo } from '../../core/types.js';
import type { TokenSpec } from '../../core/services/token-service.js';
import type { AuthEnv } from '../auth.js';
import { wire } from '../wire.js';
import type * as routes from './tokens.routes.js';

type H<R extends keyof typeof routes> = RouteHandler<Extract<(typeof routes)[R], { method: string }>, AuthEnv>;

/** Whether /mcp needs a token now (mcp-auth's required()); default: whether an MCP client token exists. */
export type McpRequired = () => Promise<boolean>;

export function createHandlers(core: Core, mcpRequired: McpRequired = () => core.tokens.mcpTokensExist()) {
  const shown = ({ scope, ...t }: TokenInfo, tokenId: number | null) => ({
    ...t, current: t.id === tokenId, label: scope?.label ?? null, tags: scope?.tags ?? null,
  });
  const list: H<'list'> = async (c) => {
    const self = c.get('tokenId');
    const [items, required] = await Promise.all([core.tokens.list(), mcpRequired()]);
    return c.json(wire({ items: items.map((t) => shown(t, self)), nextCursor: null, mcpAnonymous: !required }), 200);
  };
  const create: H<'create'> = async (c) => {
    const { name, kind, role, label, tags, mcpRatePerMinute, writeRatePerMinute } = c.req.valid('json');
    const spec: TokenSpec = kind === 'mcp' || kind === 'app' ? { kind, label, tags, ...(role ? { role } : {}) } : { kind, role, ...(label ? { label } : {}), ...(tags ? { tags } : {}) } as TokenSpec;
    const { token, info } = await core.tokens.create(name, c.get('actor'), { ...spec, mcpRatePerMinute, writeRatePerMinute });
    c.header('Location', `/admin/v1/tokens/${info.id}`);
    return c.json(wire({ ...shown(info, c.get('tokenId')), token }), 201);
  };
  const revoke: H<'revoke'> = async (c) => {
    const t = await core.tokens.revoke(c.req.valid('param').id, c.get('actor'));
    return c.json(wire(shown(t, c.get('tokenId'))), 200);
  };
  const update: H<'update'> = async (c) => {
    const t = await core.tokens.setRates(c.req.valid('param').id, c.req.valid('json'), c.get('actor'));
    return c.json(wire(shown(t, c.get('tokenId'))), 200);
  };
  return { list, create, update, revoke };
}
