// Webhook domain types (docs/webhooks.md). Prisma rows never leave src/db.

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Webhook {
  id: number;
  url: string;
  /** event names or patterns: `*`, `prompt.*`, `version.created` */
  events: string[];
  /** only events whose details carry this release label */
  label: string | null;
  active: boolean;
  /** the secret's first characters, so people can tell secrets apart */
  secretHint: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A webhook as stored: with its signing secret and the change log id it starts after. */
export interface StoredWebhook extends Webhook {
  secret: string;
  sinceEventId: number;
}

export interface WebhookDelivery {
  id: number;
  webhookId: number;
  /** the change log id (ChangeEvent.id) this delivery carries */
  eventId: number;
  /** the change log action, e.g. `version.created` (null once the event is gone) */
  event: string | null;
  status: DeliveryStatus;
  attempts: number;
  /** when the next attempt is due (pending), or null */
  nextAttemptAt: Date | null;
  lastError: string | null;
  lastStatusCode: number | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
