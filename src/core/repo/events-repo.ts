import type { Tx } from './tx.js';
import type { ChangeEvent } from '../types.js';

export interface NewChangeEvent {
  actor: string;
  action: string;
  entity: ChangeEvent['entity'];
  entityKey: string;
  served?: boolean;
  details?: Record<string, unknown>;
}

export async function appendEvents(tx: Tx, events: NewChangeEvent[]): Promise<void> {
  for (const e of events) {
    await tx.changeEvent.create({
      data: { actor: e.actor, action: e.action, entity: e.entity, entityKey: e.entityKey, served: e.served ?? false, details: e.details ? JSON.stringify(e.details) : null },
    });
  }
}

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

export async function eventsAfter(tx: Tx, afterId: number, limit = 1000): Promise<ChangeEvent[]> {
  return (await tx.changeEvent.findMany({ where: { id: { gt: afterId } }, orderBy: { id: 'asc' }, take: limit })).map(toEvent);
}

export async function lastEventId(tx: Tx): Promise<number> {
  return (await tx.changeEvent.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? 0;
}
