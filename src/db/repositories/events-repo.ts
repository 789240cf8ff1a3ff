// The change log: appended in the same transaction as the rows it describes.
import { Prisma, type Tx } from '../prisma.js';
import { insertRows } from './bulk-sql.js';
import { prismaSql, type RawSql } from '../raw-sql.js';
import type { ChangeEvent } from '../../core/types.js';
import type { EventRepository, NewChangeEvent } from '../../core/ports.js';

type Row = NonNullable<Awaited<ReturnType<Tx['changeEvent']['findFirst']>>>;

export function toEvent(r: Row): ChangeEvent {
  return {
    id: r.id,
    at: r.at,
    actor: r.actor,
    action: r.action,
    entity: r.entity as ChangeEvent['entity'],
    entityKey: r.entityKey,
    served: r.served,
    details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
  };
}

export const EVENT_COLUMNS = ['at', 'actor', 'action', 'entity', 'entityKey', 'served', 'details'];
export const eventRow = (e: NewChangeEvent, at: Date) => [at, e.actor, e.action, e.entity, e.entityKey, e.served ?? false, e.details ? JSON.stringify(e.details) : null];

// The change log's columns as stored: on SQLite a DateTime is text (ISO with an offset
// as the adapter writes it, or CURRENT_TIMESTAMP's UTC "YYYY-MM-DD HH:MM:SS" from the
// column default) and a Boolean is 0/1.
const AFTER = (afterId: number, limit: number) =>
  Prisma.sql`SELECT "id", "at", "actor", "action", "entity", "entityKey", "served", "details" FROM "ChangeEvent" WHERE "id" > ${afterId} ORDER BY "id" ASC LIMIT ${limit}`;
const dateOf = (v: unknown): Date =>
  v instanceof Date ? v : typeof v === 'string' ? new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v.replace(' ', 'T')}Z`) : new Date(Number(v));
type RawEvent = { id: unknown; at: unknown; actor: string; action: string; entity: string; entityKey: string; served: unknown; details: string | null };
const fromRaw = (r: RawEvent): Row => ({ id: Number(r.id), at: dateOf(r.at), actor: r.actor, action: r.action, entity: r.entity, entityKey: r.entityKey, served: Boolean(r.served), details: r.details });

/** `feedSql`: where after() reads below Prisma (the SQLite reader: the change feed reads after every write). */
export function eventRepository(tx: Tx, sql: RawSql = prismaSql(tx), feedSql?: RawSql): EventRepository {
  return {
    async append(events, at = new Date()) {
      await insertRows(sql, 'ChangeEvent', EVENT_COLUMNS, events.map((e) => eventRow(e, at)));
    },
    async newest(f, { beforeId, limit }) {
      const where = {
        ...(f.actor !== undefined ? { actor: f.actor } : {}),
        ...(f.actions !== undefined ? { action: { in: f.actions } } : f.exceptActions !== undefined ? { action: { notIn: f.exceptActions } } : {}),
        ...(f.entity !== undefined ? { entity: f.entity } : {}),
        ...(f.entityKey !== undefined ? { entityKey: f.entityKey } : {}),
        ...(beforeId !== undefined ? { id: { lt: beforeId } } : {}),
        ...(f.from !== undefined || f.to !== undefined ? { at: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
      };
      return (await tx.changeEvent.findMany({ where, orderBy: { id: 'desc' }, take: limit })).map(toEvent);
    },
    async after(afterId, limit) {
      if (feedSql) return (await feedSql.query<RawEvent>(AFTER(afterId, limit))).map((r) => toEvent(fromRaw(r)));
      return (await tx.changeEvent.findMany({ where: { id: { gt: afterId } }, orderBy: { id: 'asc' }, take: limit })).map(toEvent);
    },
    async ofEntity(entity, key, { actions, before, limit }) {
      const rows = await tx.changeEvent.findMany({
        where: { entity, entityKey: key, action: { in: [...actions] }, ...(before !== undefined ? { id: { lt: before } } : {}) },
        orderBy: { id: 'desc' },
        take: limit,
      });
      return rows.map(toEvent);
    },
    async lastId() {
      return (await tx.changeEvent.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? 0;
    },
  };
}
