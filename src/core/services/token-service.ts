// Admin API tokens: random, shown once, stored as SHA-256 hashes (they carry 256
// bits of entropy, so a slow password hash adds nothing). The env token is
// compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import { writeTx } from '../repo/tx.js';
import { appendEvents } from '../repo/events-repo.js';

export interface TokenInfo {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

export function createTokenService({ db, envToken }: { db: Db; envToken?: string }) {
  const envDigest = envToken ? sha256(envToken) : undefined;
  const toInfo = (t: TokenInfo): TokenInfo => ({ id: t.id, name: t.name, prefix: t.prefix, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt });

  return {
    async create(name: string, actor = 'cli'): Promise<{ token: string; info: TokenInfo }> {
      const token = `pd_${randomBytes(32).toString('base64url')}`;
      const info = await writeTx(db, async (tx) => {
        const row = await tx.apiToken.create({ data: { name, prefix: token.slice(0, 10), hash: sha256(token).toString('hex') } });
        await appendEvents(tx, [{ actor, action: 'token.created', entity: 'token', entityKey: String(row.id), details: { name } }]);
        return toInfo(row);
      });
      return { token, info };
    },
    async list(): Promise<TokenInfo[]> {
      return (await db.prisma.apiToken.findMany({ orderBy: { id: 'asc' } })).map(toInfo);
    },
    async count(): Promise<number> {
      return db.prisma.apiToken.count({ where: { revokedAt: null } });
    },
    async revoke(idOrPrefix: string, actor = 'cli'): Promise<TokenInfo> {
      return writeTx(db, async (tx) => {
        const id = /^\d+$/.test(idOrPrefix) ? Number(idOrPrefix) : undefined;
        const row = await tx.apiToken.findFirst({ where: id !== undefined ? { id } : { prefix: idOrPrefix } });
        if (!row) throw notFound(`token ${idOrPrefix}`);
        const updated = await tx.apiToken.update({ where: { id: row.id }, data: { revokedAt: row.revokedAt ?? new Date() } });
        await appendEvents(tx, [{ actor, action: 'token.revoked', entity: 'token', entityKey: String(row.id) }]);
        return toInfo(updated);
      });
    },
    /** Returns the actor name for a valid token, or null. Checked against the database on every call, so revocation is immediate. */
    async verify(token: string | undefined): Promise<string | null> {
      if (!token || token.length > 512) return null;
      const digest = sha256(token);
      if (envDigest && timingSafeEqual(digest, envDigest)) return 'admin';
      const row = await db.prisma.apiToken.findUnique({ where: { hash: digest.toString('hex') }, select: { id: true, name: true, revokedAt: true } });
      if (!row || row.revokedAt) return null;
      return `token:${row.name}`;
    },
    hasEnvToken: () => envDigest !== undefined,
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
