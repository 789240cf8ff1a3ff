// Webhooks, their deliveries and the dispatcher's cursor over the change log.
import type { Tx } from '../prisma.js';
import type { DeliveryJob, WebhookRepository } from '../../core/ports.js';
import type { DeliveryStatus, StoredWebhook, WebhookDelivery } from '../../core/webhooks/types.js';
import { toEvent } from './events-repo.js';

type HookRow = NonNullable<Awaited<ReturnType<Tx['webhook']['findFirst']>>>;
type DeliveryRow = NonNullable<Awaited<ReturnType<Tx['webhookDelivery']['findFirst']>>>;

const CURSOR_KEY = 'webhook_cursor';

const toHook = (r: HookRow): StoredWebhook => ({
  id: r.id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  label: r.label,
  active: r.active,
  secretHint: `${r.secret.slice(0, 10)}…`,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  secret: r.secret,
  sinceEventId: r.sinceEventId,
});

const toDelivery = (r: DeliveryRow, action: string | null): WebhookDelivery => ({
  id: r.id,
  webhookId: r.webhookId,
  eventId: r.eventId,
  event: action,
  status: r.status as DeliveryStatus,
  attempts: r.attempts,
  nextAttemptAt: r.nextAttemptAt,
  lastError: r.lastError,
  lastStatusCode: r.lastStatusCode,
  deliveredAt: r.deliveredAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export function webhookRepository(tx: Tx): WebhookRepository {
  const withActions = async (rows: DeliveryRow[]) => {
    const events = await tx.changeEvent.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.eventId))] } }, select: { id: true, action: true } });
    const action = new Map(events.map((e) => [e.id, e.action]));
    return rows.map((r) => toDelivery(r, action.get(r.eventId) ?? null));
  };
  const data = (f: { url?: string; events?: string[]; label?: string | null; active?: boolean; secret?: string; sinceEventId?: number }) => ({
    ...(f.url !== undefined ? { url: f.url } : {}),
    ...(f.events !== undefined ? { events: JSON.stringify(f.events) } : {}),
    ...(f.label !== undefined ? { label: f.label } : {}),
    ...(f.active !== undefined ? { active: f.active } : {}),
    ...(f.secret !== undefined ? { secret: f.secret } : {}),
    ...(f.sinceEventId !== undefined ? { sinceEventId: f.sinceEventId } : {}),
  });

  return {
    insert: async (f) => toHook(await tx.webhook.create({ data: { ...data(f), url: f.url, events: JSON.stringify(f.events), secret: f.secret, sinceEventId: f.sinceEventId } })),
    list: async () => (await tx.webhook.findMany({ orderBy: { id: 'asc' } })).map(toHook),
    count: () => tx.webhook.count(),
    async byId(id) {
      const r = await tx.webhook.findUnique({ where: { id } });
      return r ? toHook(r) : null;
    },
    update: async (id, f) => toHook(await tx.webhook.update({ where: { id }, data: data(f) })),
    async remove(id) {
      await tx.webhook.delete({ where: { id } });
    },
    active: async () => (await tx.webhook.findMany({ where: { active: true }, orderBy: { id: 'asc' } })).map(toHook),
    async deliveries(webhookId, { beforeId, limit }) {
      const rows = await tx.webhookDelivery.findMany({ where: { webhookId, ...(beforeId ? { id: { lt: beforeId } } : {}) }, orderBy: { id: 'desc' }, take: limit });
      return withActions(rows);
    },
    async delivery(webhookId, id) {
      const r = await tx.webhookDelivery.findFirst({ where: { id, webhookId } });
      return r ? (await withActions([r]))[0]! : null;
    },
    async enqueue(items, at) {
      if (!items.length) return [];
      const rows = await tx.webhookDelivery.createManyAndReturn({ data: items.map((i) => ({ ...i, nextAttemptAt: at })), select: { id: true } });
      return rows.map((r) => r.id);
    },
    async cursor() {
      const r = await tx.setting.findUnique({ where: { key: CURSOR_KEY } });
      return r ? Number(r.value) : null;
    },
    async setCursor(eventId) {
      await tx.setting.upsert({ where: { key: CURSOR_KEY }, create: { key: CURSOR_KEY, value: String(eventId) }, update: { value: String(eventId) } });
    },
    due: (now, limit, webhookId) =>
      tx.webhookDelivery.findMany({
        where: { status: 'pending', nextAttemptAt: { lte: now }, webhook: { active: true }, ...(webhookId !== undefined ? { webhookId } : {}) },
        orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
        take: limit,
        select: { id: true, attempts: true },
      }),
    async dueWebhooks(now) {
      const rows = await tx.webhookDelivery.groupBy({ by: ['webhookId'], where: { status: 'pending', nextAttemptAt: { lte: now }, webhook: { active: true } } });
      return rows.map((r) => r.webhookId);
    },
    async claim(id, attempts, now, leaseUntil) {
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id, attempts, status: 'pending', nextAttemptAt: { lte: now } },
        data: { attempts: attempts + 1, nextAttemptAt: leaseUntil },
      });
      return count === 1;
    },
    async job(id): Promise<DeliveryJob | null> {
      const r = await tx.webhookDelivery.findUnique({ where: { id }, include: { webhook: true } });
      if (!r) return null;
      const e = await tx.changeEvent.findUnique({ where: { id: r.eventId } });
      const { webhook, ...row } = r;
      return { delivery: toDelivery(row, e?.action ?? null), webhook: toHook(webhook), event: e ? toEvent(e) : null };
    },
    async finish(id, attempts, o) {
      const { count } = await tx.webhookDelivery.updateMany({ where: { id, attempts, status: 'pending' }, data: o });
      return count === 1;
    },
    async reset(id, now) {
      const r = await tx.webhookDelivery.update({ where: { id }, data: { status: 'pending', attempts: 0, nextAttemptAt: now, deliveredAt: null } });
      return (await withActions([r]))[0]!;
    },
    async prune(before) {
      const { count } = await tx.webhookDelivery.deleteMany({ where: { status: { in: ['delivered', 'failed'] }, updatedAt: { lt: before } } });
      return count;
    },
  };
}
