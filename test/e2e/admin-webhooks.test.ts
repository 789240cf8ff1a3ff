// The Webhooks page against a real server and a real receiver on 127.0.0.1: create
// (secret shown once), a failing delivery in the log, redeliver, field errors, delete;
// axe-core finds 0 violations on each state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { confirm, rest, shot, signIn, until } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { verifySignature } from '../../src/core/webhooks/signature.js';

/** Refreshes the open delivery log until its first row's result contains `text`. */
async function logShows(page: Page, text: string) {
  await until(async () => {
    await page.getByTestId('deliveries-refresh').click();
    return ((await page.getByTestId('delivery-result').first().textContent().catch(() => '')) ?? '').includes(text);
  }, `the delivery log to show "${text}"`);
}

describe.skipIf(skipE2E)('admin UI: webhooks', () => {
  const { setup, onCleanup } = useE2E();
  let rx: Receiver;
  beforeAll(() => {
    process.env.PROMPTD_WEBHOOK_ALLOW_PRIVATE = '1'; // the receiver is on loopback
  });
  afterAll(() => {
    delete process.env.PROMPTD_WEBHOOK_ALLOW_PRIVATE;
  });

  it('create with the secret shown once, a failed delivery in the log, redeliver, field errors, delete', async () => {
    rx = await startReceiver();
    onCleanup(() => rx.close());
    rx.state.status = 500;
    const { server, page, errors } = await setup();
    const base = server.url;
    await signIn(page, base);
    await page.getByTestId('nav-webhooks').click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();
    await expectNoAxeViolations(page, 'webhooks (empty)');

    await page.getByLabel('Payload URL').fill(rx.url);
    await page.getByLabel('Events').fill('prompt.created, version.created');
    await page.getByTestId('webhook-create').click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    const row = page.locator(`[data-testid="webhook-row"][data-url="${rx.url}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(0, 10));
    expect(await row.textContent()).not.toContain(secret);
    await expectNoAxeViolations(page, 'webhooks (secret shown)');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);

    await rest(base, 'POST', '/prompts', { name: 'hooked', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });
    await rx.received(1);
    const [first] = rx.requests;
    expect(verifySignature(secret, { signature: first!.headers['x-promptd-signature'] as string, timestamp: first!.headers['x-promptd-timestamp'] as string }, first!.body)).toBe(true);
    await row.getByTestId('webhook-toggle-deliveries').click();
    await logShows(page, 'HTTP 500');
    const delivery = page.getByTestId('delivery-row').first();
    expect(await delivery.getAttribute('data-status')).toBe('pending');
    expect(await delivery.getByTestId('delivery-attempts').textContent()).toBe('1');
    expect(await delivery.textContent()).toContain('prompt.created');
    await expectNoAxeViolations(page, 'webhooks (delivery log)');
    await shot(page, 'webhooks-delivery-log', true);

    rx.state.status = 200;
    await delivery.getByTestId('delivery-redeliver').click();
    await rx.received(2);
    await logShows(page, 'HTTP 200');
    expect(await page.getByTestId('delivery-row').first().getAttribute('data-status')).toBe('delivered');

    await page.getByLabel('Payload URL').fill('https://hooks.example.com/x');
    await page.getByLabel('Events').fill('*, nope');
    await page.getByTestId('webhook-create').click();
    await page.locator('[data-error-for="events"]').waitFor();
    expect(await page.locator('[data-error-for="events"]').textContent()).toContain('unknown event "nope"');
    await expectNoAxeViolations(page, 'webhooks (field error)');

    await confirm(page, row.getByTestId('webhook-delete'));
    await page.getByText('No webhooks yet.').waitFor();
    expect(errors).toEqual([]);
  });
});
