import type { Tx } from '../prisma.js';
import type { TokenGrant, TokenRepository } from '../../core/ports.js';
import type { TokenInfo } from '../../core/types.js';
import { isRole, type TokenKind } from '../../core/access.js';

interface Row {
  id: number; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null;
  kind: string; role: string; label: string | null; tags: string | null;
  mcpRatePerMinute: number | null; writeRatePerMinute: number | null;
}

/** The row's columns as a grant; an unknown kind or role reads as the least it could be. */
function grantOf(row: Pick<Row, 'kind' | 'role' | 'label' | 'tags'>): TokenGrant {
  const kind: TokenKind = row.kind === 'mcp' || row.kind === 'app' ? row.kind : 'admin';
  if (kind !== 'admin') {
    const tags = row.tags ? (JSON.parse(row.tags) as string[]) : null;
    return { kind, role: null, scope: { label: row.label ?? 'production', tags } };
  }
  return { kind, role: isRole(row.role) ? row.role : 'reader', scope: null };
}

const toInfo = (t: Row): TokenInfo => ({
  id: t.id, name: t.name, prefix: t.prefix, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt, ...grantOf(t),
  mcpRatePerMinute: t.mcpRatePerMinute, writeRatePerMinute: t.writeRatePerMinute,
});

const columnsOf = (g: TokenGrant) => ({
  kind: g.kind,
  // MCP and app tokens have no admin role; `reader` is stored so a row read wrongly grants least.
  role: g.kind === 'admin' ? (g.role ?? 'reader') : 'reader',
  label: g.scope?.label ?? null,
  tags: g.scope?.tags ? JSON.stringify(g.scope.tags) : null,
});

export function tokenRepository(tx: Tx): TokenRepository {
  return {
    insert: async ({ name, prefix, hash, mcpRatePerMinute, writeRatePerMinute, ...grant }) =>
      toInfo(await tx.apiToken.create({ data: { name, prefix, hash, ...columnsOf(grant), mcpRatePerMinute: mcpRatePerMinute ?? null, writeRatePerMinute: writeRatePerMinute ?? null } })),
    list: async () => (await tx.apiToken.findMany({ orderBy: { id: 'asc' } })).map(toInfo),
    countActive: (kind) => tx.apiToken.count({ where: { revokedAt: null, ...(kind ? { kind } : {}) } }),
    async byId(id) {
      const row = await tx.apiToken.findUnique({ where: { id } });
      return row ? toInfo(row) : null;
    },
    async byName(name) {
      const row = await tx.apiToken.findUnique({ where: { name } });
      return row ? toInfo(row) : null;
    },
    async namesStartingWith(prefix) {
      return (await tx.apiToken.findMany({ where: { name: { startsWith: prefix } }, select: { name: true } })).map((r) => r.name);
    },
    async matchPrefix(prefix, limit) {
      return (await tx.apiToken.findMany({ where: { prefix: { startsWith: prefix } }, orderBy: { id: 'asc' }, take: limit })).map(toInfo);
    },
    async revoke(id, at) {
      return toInfo(await tx.apiToken.update({ where: { id }, data: { revokedAt: at } }));
    },
    async touch(id, at) {
      await tx.apiToken.updateMany({ where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: at } }] }, data: { lastUsedAt: at } });
    },
    async byHash(hash) {
      const row = await tx.apiToken.findUnique({ where: { hash }, select: { id: true, name: true, revokedAt: true, kind: true, role: true, label: true, tags: true, mcpRatePerMinute: true, writeRatePerMinute: true } });
      return row ? { id: row.id, name: row.name, revokedAt: row.revokedAt, mcpRatePerMinute: row.mcpRatePerMinute, writeRatePerMinute: row.writeRatePerMinute, ...grantOf(row) } : null;
    },
    async setRates(id, rates) {
      return toInfo(await tx.apiToken.update({ where: { id }, data: rates }));
    },
  };
}
