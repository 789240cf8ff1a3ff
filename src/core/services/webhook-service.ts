// Webhook use cases: CRUD, the delivery log, redelivery and a test ping. Sending is
// the dispatcher's job (src/core/webhook-dispatcher.ts); these only write rows and
// change events, so they cost what any other admin write costs.
import { randomBytes } from 'node:crypto';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import type { CursorCodec } from '../cursor.js';
import type { ChangeFeed } from '../change-feed.js';
import type { Store, WebhookFields } from '../ports.js';
import type { Actor, Page } from '../types.js';
import type { StoredWebhook, Webhook, WebhookDelivery } from '../webhooks/types.js';
import { PING_EVENT } from '../webhooks/events.js';
import { WEBHOOK_LIMITS, type WebhookInput, type WebhookPatch } from '../webhooks/schemas.js';
import { webhookUrlProblem } from '../webhooks/url-guard.js';
import { clampLimit } from './prompt-service.js';

export type { Webhook, WebhookDelivery };

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** The public view: never the secret itself. */
const publicView = ({ secret: _s, sinceEventId: _e, ...w }: StoredWebhook): Webhook => w;

export function createWebhookService({ store, cursors, feed, allowPrivate }: { store: Pick<Store, 'read' | 'write'>; cursors: CursorCodec; feed: Pick<ChangeFeed, 'poke'>; allowPrivate: boolean }) {
  const { read } = store;
  const ev = (actor: Actor, action: string, id: number, details?: Record<string, unknown>) => ({
    actor: actor.name, action, entity: 'webhook' as const, entityKey: String(id), served: false, ...(details ? { details } : {}),
  });
  const checkUrl = (url: string | undefined) => {
    const problem = url === undefined ? null : webhookUrlProblem(url, allowPrivate);
    if (problem) throw invalid(`the webhook URL ${problem}`, [{ path: 'url', message: problem }]);
  };
  const done = async <T>(v: T) => {
    await feed.poke();
    return v;
  };
  const mustGet = async (tx: Pick<Store['read'], 'webhooks'>, id: number) => {
    const w = await tx.webhooks.byId(id);
    if (!w) throw notFound(`webhook ${id}`);
    return w;
  };

  return {
    /** Creates a webhook; its secret is returned here and never again. */
    async create(input: WebhookInput, actor: Actor): Promise<{ webhook: Webhook; secret: string }> {
      checkUrl(input.url);
      const secret = newSecret();
      const row = await store.write(async (tx) => {
        if ((await tx.webhooks.count()) >= WEBHOOK_LIMITS.webhooks) throw conflict(`there are already ${WEBHOOK_LIMITS.webhooks} webhooks, the most this server keeps; delete one first`);
        // Read under the write lock: exactly the events committed before this one are excluded.
        const sinceEventId = await tx.events.lastId();
        const w = await tx.webhooks.insert({ url: input.url, events: [...new Set(input.events)], label: input.label ?? null, active: input.active ?? true, secret, sinceEventId });
        await tx.events.append([ev(actor, 'webhook.created', w.id, { events: w.events, label: w.label })]);
        return w;
      });
      return done({ webhook: publicView(row), secret });
    },

    list: async (): Promise<Webhook[]> => (await read.webhooks.list()).map(publicView),

    get: async (id: number): Promise<Webhook> => publicView(await mustGet(read, id)),

    /** Changes a webhook; with rotateSecret, the new secret is returned (once). */
    async update(id: number, patch: WebhookPatch, actor: Actor): Promise<{ webhook: Webhook; secret?: string }> {
      checkUrl(patch.url);
      const secret = patch.rotateSecret ? newSecret() : undefined;
      const fields: Partial<WebhookFields> = {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.label !== undefined ? { label: patch.label } : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
        ...(secret ? { secret } : {}),
      };
      const row = await store.write(async (tx) => {
        const before = await mustGet(tx, id);
        // Reactivated, it starts afresh: events from while it was inactive are not sent.
        const restart = patch.active === true && !before.active ? { sinceEventId: await tx.events.lastId() } : {};
        const w = await tx.webhooks.update(id, { ...fields, ...restart });
        await tx.events.append([ev(actor, 'webhook.updated', id, { changed: Object.keys(fields) })]);
        return w;
      });
      return done({ webhook: publicView(row), ...(secret ? { secret } : {}) });
    },

    /** Deletes a webhook and its delivery log. */
    async remove(id: number, actor: Actor): Promise<void> {
      await store.write(async (tx) => {
        await mustGet(tx, id);
        await tx.webhooks.remove(id);
        await tx.events.append([ev(actor, 'webhook.deleted', id)]);
      });
      await done(undefined);
    },

    /** The delivery log, newest first. */
    async deliveries(id: number, opts: { limit?: number; cursor?: string } = {}): Promise<Page<WebhookDelivery>> {
      await mustGet(read, id);
      const limit = clampLimit(opts.limit);
      const beforeId = opts.cursor ? cursors.decode<number>(`webhook-deliveries:${id}`, opts.cursor) : undefined;
      const items = await read.webhooks.deliveries(id, { beforeId, limit: limit + 1 });
      const page = items.slice(0, limit);
      return { items: page, nextCursor: items.length > limit ? cursors.encode(`webhook-deliveries:${id}`, page.at(-1)!.id) : null };
    },

    /** Sends a delivery again as soon as possible, with a fresh retry schedule. */
    async redeliver(id: number, deliveryId: number): Promise<WebhookDelivery> {
      return store.write(async (tx) => {
        const w = await mustGet(tx, id);
        if (!w.active) throw conflict(`webhook ${id} is inactive; activate it first`, [{ path: 'active', message: 'is false' }]);
        if (!(await tx.webhooks.delivery(id, deliveryId))) throw notFound(`delivery ${deliveryId} of webhook ${id}`);
        return tx.webhooks.reset(deliveryId, new Date());
      });
    },

    /** Queues a `webhook.ping` event for this webhook alone. */
    async ping(id: number, actor: Actor): Promise<WebhookDelivery> {
      const delivery = await store.write(async (tx) => {
        const w = await mustGet(tx, id);
        if (!w.active) throw conflict(`webhook ${id} is inactive; activate it first`, [{ path: 'active', message: 'is false' }]);
        await tx.events.append([ev(actor, PING_EVENT, id, { webhook: id })]);
        const eventId = await tx.events.lastId();
        const [deliveryId] = await tx.webhooks.enqueue([{ webhookId: id, eventId }], new Date());
        const d = await tx.webhooks.delivery(id, deliveryId!);
        if (!d) throw new DomainError('internal', 'the ping delivery was not stored');
        return d;
      });
      return done(delivery);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
