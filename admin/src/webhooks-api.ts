// Calls for the Webhooks page (/admin/v1/webhooks), through api.ts's typed client.
import { client, request } from './api';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Webhook {
  id: number;
  url: string;
  events: string[];
  label: string | null;
  active: boolean;
  secretHint: string;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDelivery {
  id: number;
  webhookId: number;
  eventId: number;
  event: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  lastStatusCode: number | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookBody {
  url: string;
  events: string[];
  label?: string | null;
  active?: boolean;
}

interface Page<T> { items: T[]; nextCursor: string | null }

const data = <T>(p: Promise<{ data: T }>) => p.then((r) => r.data);
const id = (n: number) => String(n);

export const webhooksApi = {
  list: () => data(request(client.webhooks.$get, {})).then((p) => p.items as Webhook[]),
  create: (body: WebhookBody) => data(request(client.webhooks.$post, { json: body })) as Promise<Webhook & { secret: string }>,
  update: (n: number, body: Partial<WebhookBody> & { rotateSecret?: true }) =>
    data(request(client.webhooks[':id'].$patch, { param: { id: id(n) }, json: body })) as Promise<Webhook & { secret?: string }>,
  remove: (n: number) => data(request(client.webhooks[':id'].$delete, { param: { id: id(n) } })),
  deliveries: (n: number, cursor?: string | null) =>
    data(request(client.webhooks[':id'].deliveries.$get, { param: { id: id(n) }, query: { limit: '20', ...(cursor ? { cursor } : {}) } })) as Promise<Page<WebhookDelivery>>,
  redeliver: (n: number, deliveryId: number) =>
    data(request(client.webhooks[':id'].deliveries[':deliveryId'].redeliver.$post, { param: { id: id(n), deliveryId: id(deliveryId) } })) as unknown as Promise<WebhookDelivery>,
  ping: (n: number) => data(request(client.webhooks[':id'].ping.$post, { param: { id: id(n) } })) as unknown as Promise<WebhookDelivery>,
};
