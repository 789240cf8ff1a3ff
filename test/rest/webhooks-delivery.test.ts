// End to end: the listening server (startServer, as `promptd serve` runs it) with its
// dispatcher, a REST write, and a real receiver on 127.0.0.1. The dispatcher's clock
// is injected so retries become due when the test says, not after real minutes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { RETRY_SCHEDULE_MS, type WebhookPayload } from '../../src/core/webhook-dispatcher.js';
import { verifySignature } from '../../src/core/webhooks/signature.js';
import { createLogger } from '../../src/logger.js';
import { tempDbUrl, TEST_DB } from '../helpers/db.js';
import { TOKEN, textPrompt } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/spawn.js';

let srv: RunningServer;
let rx: Receiver;
let offset = 0;
const now = () => new Date(Date.now() + offset);

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${srv.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

beforeAll(async () => {
  srv = await startServer({ databaseUrl: await tempDbUrl(), port: 0, seed: false, adminToken: TOKEN, logger: createLogger('silent'), webhooks: { allowPrivate: true, now, pollMs: 50, timeoutMs: 600_000 } });
});
afterAll(async () => {
  await srv.close(); // aborts the send the hung receiver holds
  await rx.close();
});
beforeEach(async () => {
  await rx?.close();
  rx = await startReceiver();
  for (const { id } of (await (await api('GET', '/webhooks')).json()).items) await api('DELETE', `/webhooks/${id}`);
});

describe(`webhook deliveries through promptd serve (${TEST_DB})`, () => {
  it('a REST write reaches the receiver, signed with the secret from creation, and shows as delivered', async () => {
    const { id, secret } = await (await api('POST', '/webhooks', { url: rx.url, events: ['prompt.created'] })).json();
    expect((await api('POST', '/prompts', textPrompt('e2e-signed'))).status).toBe(201);
    await rx.received(1);
    const [r] = rx.requests;
    const ok = verifySignature(secret, { signature: r!.headers['x-promptd-signature'] as string, timestamp: r!.headers['x-promptd-timestamp'] as string }, r!.body);
    expect(ok).toBe(true);
    expect(JSON.parse(r!.body) as WebhookPayload).toMatchObject({ event: 'prompt.created', key: 'e2e-signed', actor: 'admin', entity: 'prompt' });
    const log = await waitFor(async () => {
      const page = await (await api('GET', `/webhooks/${id}/deliveries`)).json();
      return page.items[0]?.status === 'delivered' ? page : undefined;
    }, 10_000, 'the delivery to be logged as delivered');
    expect(log.items).toHaveLength(1);
    expect(log.items[0]).toMatchObject({ event: 'prompt.created', attempts: 1, lastStatusCode: 200, lastError: null, id: Number(r!.headers['x-promptd-delivery']) });
  });

  it('a receiver answering 500 is retried and each failure is in the delivery log', async () => {
    rx.state.status = 500;
    const { id } = await (await api('POST', '/webhooks', { url: rx.url, events: ['prompt.created'] })).json();
    await api('POST', '/prompts', textPrompt('e2e-flaky'));
    await rx.received(1);
    const failed = await waitFor(async () => {
      const [d] = (await (await api('GET', `/webhooks/${id}/deliveries`)).json()).items;
      return d?.attempts === 1 && d.lastStatusCode === 500 ? d : undefined;
    }, 10_000, 'the first failure to be logged');
    expect(failed).toMatchObject({ status: 'pending', lastError: 'the receiver answered HTTP 500' });
    expect(rx.requests).toHaveLength(1); // not due again before the backoff
    rx.state.status = 200;
    offset += RETRY_SCHEDULE_MS[0]!;
    await rx.received(2);
    const done = await waitFor(async () => {
      const [d] = (await (await api('GET', `/webhooks/${id}/deliveries`)).json()).items;
      return d?.status === 'delivered' ? d : undefined;
    }, 10_000, 'the retry to be logged as delivered');
    expect(done).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null });
    expect(rx.requests[0]!.headers['x-promptd-delivery']).toBe(rx.requests[1]!.headers['x-promptd-delivery']);
    expect(rx.requests[0]!.body).toBe(rx.requests[1]!.body);
  });

  // The send timeout is 10 minutes here: a write that waited for the hung delivery
  // would outlast this test's 20 s limit.
  it('writes succeed while the receiver hangs', { timeout: 20_000 }, async () => {
    rx.state.hang = true;
    await api('POST', '/webhooks', { url: rx.url, events: ['*'] });
    expect((await api('POST', '/prompts', textPrompt('e2e-hang-1'))).status).toBe(201);
    await rx.received(1); // the dispatcher is now stuck waiting on the receiver
    expect((await api('POST', '/prompts', textPrompt('e2e-hang-2'))).status).toBe(201);
    expect((await api('POST', '/prompts/e2e-hang-2/versions', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v2' } }] })).status).toBe(201);
    expect((await api('GET', '/prompts/e2e-hang-2')).status).toBe(200);
  });
});
