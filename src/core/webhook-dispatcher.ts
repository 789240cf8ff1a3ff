// Delivers webhooks from the change log. The change log is the queue: a scan matches
// events after a cursor (Setting `webhook_cursor`) against the active webhooks and
// inserts pending deliveries, advancing the cursor in the same transaction, so after
// a crash or restart the next scan picks up exactly where the last one committed.
// Sending happens outside any transaction: a delivery is claimed first by a
// conditional update (attempts and nextAttemptAt pushed ahead as a lease), so two
// instances on one database never send the same attempt, and a crashed sender's
// claim simply expires. The writes that caused an event never wait for any of this.
// Each webhook sends on its own lane (at most IN_FLIGHT_PER_WEBHOOK attempts in flight,
// refilled as each one ends), so a receiver that hangs holds up only its own deliveries,
// never another webhook's or the matching of new events.
import type { ChangeFeed } from './change-feed.js';
import type { DeliveryOutcome, Store } from './ports.js';
import type { ChangeEvent } from './types.js';
import { matches } from './webhooks/events.js';
import { createSender, type Sender } from './webhooks/send.js';
import { signatureOf } from './webhooks/signature.js';

const S = 1000;
const MIN = 60 * S;
/**
 * Pause after failed attempt n (1-based): 10 s, 30 s, 1 min, 5 min, 15 min, 30 min,
 * 1 h, 2 h, 4 h. Attempt 10 is the last: a delivery is retried for about 7 h 52 min
 * before it is marked failed (docs/webhooks.md).
 */
export const RETRY_SCHEDULE_MS = [10 * S, 30 * S, MIN, 5 * MIN, 15 * MIN, 30 * MIN, 60 * MIN, 120 * MIN, 240 * MIN];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** Per attempt: no response headers within this is a failed attempt. */
export const SEND_TIMEOUT_MS = 10 * S;
/** A claim older than this is abandoned (its sender died) and the delivery is due again. */
export const LEASE_MS = 60 * S;
/** Delivered and failed deliveries are kept this long in the delivery log. */
export const RETENTION_MS = 30 * 24 * 60 * MIN;
const SCAN_BATCH = 500;
/** Attempts one webhook may have in flight: a hung receiver holds at most this many sockets. */
export const IN_FLIGHT_PER_WEBHOOK = 4;

export interface WebhookPayload {
  /** the change log id: the same event has the same id in every delivery and retry */
  id: number;
  event: string;
  at: string;
  actor: string;
  entity: string;
  key: string;
  details: Record<string, unknown> | null;
}

export const payloadOf = (e: ChangeEvent): WebhookPayload => ({
  id: e.id, event: e.action, at: e.at.toISOString(), actor: e.actor, entity: e.entity, key: e.entityKey, details: e.details,
});

export interface DispatcherOptions {
  store: Pick<Store, 'read' | 'write'>;
  /** Wakes the dispatcher as soon as new events commit (else it polls). */
  feed?: Pick<ChangeFeed, 'subscribe'>;
  /** Allow private and loopback targets (PROMPTD_WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivate?: boolean;
  send?: Sender;
  now?: () => Date;
  /** How often due retries are looked for. */
  pollMs?: number;
  timeoutMs?: number;
  onError?: (e: unknown) => void;
}

export interface TickResult {
  /** change events matched against webhooks */
  scanned: number;
  /** attempts made (delivered or not) */
  attempts: number;
}

export function createWebhookDispatcher(opts: DispatcherOptions) {
  const { store } = opts;
  const now = opts.now ?? (() => new Date());
  const send = opts.send ?? createSender({ allowPrivate: opts.allowPrivate ?? false });
  const timeoutMs = opts.timeoutMs ?? SEND_TIMEOUT_MS;
  const pollMs = opts.pollMs ?? 1000;
  const onError = opts.onError ?? (() => {});
  let lastPrune = -Infinity;
  const abort = new AbortController();
  // Whether an active webhook exists, as the last scan saw it (undefined: unknown). With
  // none, a write does not wake the dispatcher (that was 4 queries per write); the poll
  // still runs every pollMs, and any webhook event of the change log (any instance's)
  // makes it unknown again.
  let hooksActive: boolean | undefined;

  /** Matches one batch of new change events; returns how many it looked at. */
  async function scan(): Promise<number> {
    const [cursor, last] = await Promise.all([store.read.webhooks.cursor(), store.read.events.lastId()]);
    if (cursor !== null && cursor >= last) return 0;
    // Nothing listens: no write at all (a webhook starts after the events of its creation or reactivation anyway).
    hooksActive = (await store.read.webhooks.active()).length > 0;
    if (!hooksActive) return 0;
    return store.write(async (tx) => {
      const hooks = await tx.webhooks.active();
      hooksActive = hooks.length > 0;
      if (!hooks.length) return 0;
      // Events up to the oldest active webhook's start can match none of them.
      const from = Math.max((await tx.webhooks.cursor()) ?? 0, Math.min(...hooks.map((h) => h.sinceEventId)));
      const batch = await tx.events.after(from, SCAN_BATCH);
      if (!batch.length) {
        await tx.webhooks.setCursor(from);
        return 0;
      }
      const items = batch.flatMap((e) => hooks.filter((h) => matches(h, e)).map((h) => ({ webhookId: h.id, eventId: e.id })));
      await tx.webhooks.enqueue(items, now());
      await tx.webhooks.setCursor(batch.at(-1)!.id);
      return batch.length;
    });
  }

  function retryOutcome(attempt: number, error: string, statusCode: number | null): DeliveryOutcome {
    const last = attempt >= MAX_ATTEMPTS;
    return {
      status: last ? 'failed' : 'pending',
      nextAttemptAt: last ? null : new Date(now().getTime() + RETRY_SCHEDULE_MS[attempt - 1]!),
      lastError: last ? `${error} (gave up after ${attempt} attempts)` : error,
      lastStatusCode: statusCode,
      deliveredAt: null,
    };
  }

  async function attemptOne(id: number, attempt: number): Promise<void> {
    const job = await store.read.webhooks.job(id);
    if (!job) return;
    let outcome: DeliveryOutcome;
    if (!job.event) {
      outcome = { status: 'failed', nextAttemptAt: null, lastError: 'the change event no longer exists', lastStatusCode: null, deliveredAt: null };
    } else {
      const body = JSON.stringify(payloadOf(job.event));
      const t = Math.floor(now().getTime() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'promptd-webhooks/1',
        'x-promptd-event': job.event.action,
        'x-promptd-delivery': String(id),
        'x-promptd-timestamp': String(t),
        'x-promptd-signature': signatureOf(job.webhook.secret, t, body),
      };
      try {
        const { status } = await send({ url: job.webhook.url, headers, body, timeoutMs, signal: abort.signal });
        outcome = status >= 200 && status < 300
          ? { status: 'delivered', nextAttemptAt: null, lastError: null, lastStatusCode: status, deliveredAt: now() }
          : retryOutcome(attempt, `the receiver answered HTTP ${status}`, status);
      } catch (e) {
        if (abort.signal.aborted) return; // shutting down: the claim expires and the attempt is retried
        outcome = retryOutcome(attempt, (e as Error).message.slice(0, 500) || String(e), null);
      }
    }
    // Ignored when a redelivery reset the row meanwhile (it no longer holds this claim).
    await store.write((tx) => tx.webhooks.finish(id, attempt, outcome));
  }

  // One lane per webhook with due deliveries: its attempts in flight, and the fill in progress.
  interface Lane { inFlight: number; filling: Promise<void> | undefined; again: boolean }
  const lanes = new Map<number, Lane>();
  const sends = new Set<Promise<void>>();
  let attemptsMade = 0;

  /** Claims due deliveries of one webhook up to its free in-flight slots and starts them (does not wait for them). */
  function fill(webhookId: number): Promise<void> {
    let lane = lanes.get(webhookId);
    if (!lane) lanes.set(webhookId, (lane = { inFlight: 0, filling: undefined, again: false }));
    const l = lane;
    if (l.filling) {
      l.again = true; // a slot freed or new deliveries came while this fill queried: look once more
      return l.filling;
    }
    l.filling = (async () => {
      do {
        l.again = false;
        const free = IN_FLIGHT_PER_WEBHOOK - l.inFlight;
        if (free <= 0 || stopped) return;
        const t = now();
        const due = await store.read.webhooks.due(t, free, webhookId);
        if (!due.length) return;
        const leaseUntil = new Date(t.getTime() + LEASE_MS);
        const claimed = await store.write(async (tx) => {
          const mine: { id: number; attempt: number }[] = [];
          for (const d of due) if (await tx.webhooks.claim(d.id, d.attempts, t, leaseUntil)) mine.push({ id: d.id, attempt: d.attempts + 1 });
          return mine;
        });
        for (const c of claimed) launch(webhookId, l, c);
        if (due.length === free) l.again = true; // more may be due (or another instance took some)
      } while (l.again);
    })()
      .catch(onError)
      .finally(() => {
        l.filling = undefined;
        if (!l.inFlight && lanes.get(webhookId) === l) lanes.delete(webhookId);
      });
    return l.filling;
  }

  function launch(webhookId: number, l: Lane, c: { id: number; attempt: number }) {
    l.inFlight++;
    attemptsMade++;
    const p: Promise<void> = attemptOne(c.id, c.attempt)
      .catch(onError)
      .finally(() => {
        l.inFlight--;
        sends.delete(p);
        if (!stopped) void fill(webhookId); // the freed slot takes this webhook's next due delivery
        else if (!l.inFlight && !l.filling && lanes.get(webhookId) === l) lanes.delete(webhookId);
      });
    sends.add(p);
  }

  /** Matches every new event, starts what is due on each webhook's lane, prunes old log entries hourly. */
  async function pass(): Promise<number> {
    let scanned = 0;
    for (let n; (n = await scan()) > 0; ) scanned += n;
    await Promise.all((await store.read.webhooks.dueWebhooks(now())).map(fill));
    const t = now().getTime();
    if (t - lastPrune > 60 * MIN) {
      lastPrune = t;
      await store.write((tx) => tx.webhooks.prune(new Date(t - RETENTION_MS)));
    }
    return scanned;
  }

  /** One pass, then waits for the attempts it started and those their freed slots started. */
  async function tick(): Promise<TickResult> {
    const before = attemptsMade;
    const scanned = await pass();
    const busy = () => [...sends, ...[...lanes.values()].flatMap((l) => (l.filling ? [l.filling] : []))];
    for (let b = busy(); b.length; b = busy()) await Promise.all(b);
    return { scanned, attempts: attemptsMade - before };
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let started = false;
  let unsubscribe: (() => void) | undefined;

  const schedule = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(wake, pollMs).unref();
  };
  // One pass at a time; a wake-up during a pass runs one more pass after it.
  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pass(); // sends go on in their lanes; matching new events never waits for them
        } catch (e) {
          onError(e);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
      schedule();
    });
  }

  return {
    tick,
    start() {
      if (started || stopped) return;
      started = true;
      unsubscribe = opts.feed?.subscribe((events) => {
        if (events.some((e) => e.entity === 'webhook')) hooksActive = undefined;
        if (hooksActive !== false) wake();
      });
      wake();
    },
    /** Resolves once no pass is running. */
    async idle() {
      while (running) await running;
    },
    /** Attempts in flight per webhook id, for tests and diagnostics. */
    inFlight(): Map<number, number> {
      return new Map([...lanes].map(([id, l]) => [id, l.inFlight]));
    },
    /** Stops; in-flight sends are abandoned (their claims expire and they are retried). */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe?.();
      abort.abort();
      await running;
      await Promise.all([...sends]);
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
