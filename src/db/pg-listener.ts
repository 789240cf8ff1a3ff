// PostgreSQL LISTEN/NOTIFY wake-ups for the change feed. The change log stays the
// source of truth: a notification only says "read the log now", and after a
// dropped connection we reconnect and read everything since the last seen id,
// so no event is missed across a reconnect.
import { createRequire } from 'node:module';
import type pg from 'pg';

const require = createRequire(import.meta.url);
let driver: typeof pg | undefined;
/** The pg driver, loaded on first use: SQLite commands never load it. */
export const pgDriver = (): typeof pg => (driver ??= require('pg') as typeof pg);

export const CHANGE_CHANNEL = 'promptd_changes';

export interface PgListener {
  close(): Promise<void>;
}

export function listenForChanges(url: string, onWake: () => void, onError: (e: unknown) => void = () => {}): PgListener {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 100;

  const connect = async () => {
    if (closed) return;
    const c = new (pgDriver().Client)({ connectionString: url, keepAlive: true });
    c.on('notification', () => !closed && onWake());
    c.on('error', (e) => {
      onError(e);
      drop(c);
    });
    c.on('end', () => drop(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      // close() ran while we were connecting: it had no client to end, so end this one
      // (otherwise the open connection keeps a short-lived CLI process from exiting).
      if (closed) {
        c.removeAllListeners('end');
        await c.end().catch(() => {});
        return;
      }
      client = c;
      retryMs = 100;
      onWake(); // catch up on anything committed while we were not listening
    } catch (e) {
      onError(e);
      drop(c);
    }
  };

  const drop = (c: pg.Client) => {
    if (client === c) client = undefined;
    c.removeAllListeners('notification');
    void c.end().catch(() => {});
    if (!closed) {
      const wait = retryMs;
      retryMs = Math.min(retryMs * 2, 5_000);
      setTimeout(() => void connect(), wait).unref();
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
