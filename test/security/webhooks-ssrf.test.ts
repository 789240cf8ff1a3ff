// Webhook targets (SSRF): without PROMPTD_WEBHOOK_ALLOW_PRIVATE=1 no delivery reaches a
// loopback or private address, whether the URL names it or DNS resolves to it, and
// redirects are never followed. A real receiver on 127.0.0.1 stands for the internal
// service an attacker would aim at: it must see no request.
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSender } from '../../src/core/webhooks/send.js';
import { isPrivateAddress, webhookUrlProblem } from '../../src/core/webhooks/url-guard.js';
import { createWebhookDispatcher } from '../../src/core/webhook-dispatcher.js';
import { actor, makeCore, type TestCore } from '../helpers/db.js';
import { createStore } from '../../src/db/store.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let rx: Receiver;
beforeEach(async () => (rx = await startReceiver()));
afterEach(() => rx.close());

// DNS that answers 127.0.0.1 for every name: a public-looking host that rebinds to loopback.
const rebinding = ((_host: string, opts: dns.LookupOptions, cb: (e: null, a: dns.LookupAddress[] | string, f?: number) => void) =>
  opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)) as unknown as typeof dns.lookup;
const req = (url: string) => ({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5_000 });

describe('webhook targets', () => {
  it('classifies addresses', () => {
    for (const ip of ['127.0.0.1', '127.9.9.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(ip), ip).toBe(false);
    expect(webhookUrlProblem('http://[fe80::1]/', false)).toContain('PROMPTD_WEBHOOK_ALLOW_PRIVATE');
    expect(webhookUrlProblem('http://[fe80::1]/', true)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com/x', false)).toBeNull();
    expect(webhookUrlProblem('file:///etc/passwd', true)).toBe('must use http or https');
  });

  // #36.10: IPv4 addresses embedded in IPv6, in every spelling, as the URL parser
  // normalises them ([::127.0.0.1] becomes [::7f00:1]) and as DNS may answer them.
  it('blocks blocked IPv4 addresses embedded in IPv6: compatible, mapped, translated, NAT64, 6to4, Teredo', () => {
    const embedded = {
      compatible: ['::127.0.0.1', '::7f00:1', '0:0:0:0:0:0:7f00:1', '::a00:1', '::169.254.169.254'],
      mapped: ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:7F00:0001', '::ffff:10.1.2.3', '::ffff:a9fe:a9fe'],
      translated: ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '0:0:0:0:ffff:0:c0a8:1'],
      nat64: ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b:0:0:0:0:a9fe:a9fe', '64:ff9b:1::1'],
      sixToFour: ['2002:7f00:1::', '2002:7f00:0001:0:0:0:0:1', '2002:a00:1::1', '2002:a9fe:a9fe::'],
      teredo: ['2001:0:7f00:1::1', '2001:0:808:808:0:0:80ff:fffe'], // server 127.0.0.1; client 127.0.0.1 (bits inverted)
    };
    for (const [form, ips] of Object.entries(embedded)) for (const ip of ips) expect(isPrivateAddress(ip), `${form} ${ip}`).toBe(true);
    for (const ip of ['::808:808', '::ffff:808:808', '::ffff:0:808:808', '64:ff9b::808:808', '2002:808:808::', '2001:0:808:808::f7f7:f7f7', '2001:4860:4860::8888']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
    for (const host of ['[::127.0.0.1]', '[::ffff:0:127.0.0.1]', '[2002:7f00:1::]', '[64:ff9b::127.0.0.1]', '[::ffff:127.0.0.1]', '[0:0:0:0:0:ffff:7f00:1]']) {
      expect(webhookUrlProblem(`http://${host}:8080/hook`, false), host).toContain('PROMPTD_WEBHOOK_ALLOW_PRIVATE');
    }
  });

  it('a host name that resolves to loopback is refused at connect time; allowed, the same request arrives', async () => {
    const target = `http://rebind.example:${rx.port}/hook`;
    expect(webhookUrlProblem(target, false)).toBeNull(); // looks public when saved
    await expect(createSender({ allowPrivate: false, resolve: rebinding })(req(target))).rejects.toThrow(/resolves to the private address 127\.0\.0\.1.*PROMPTD_WEBHOOK_ALLOW_PRIVATE/);
    expect(rx.requests).toHaveLength(0);
    await expect(createSender({ allowPrivate: true, resolve: rebinding })(req(target))).resolves.toEqual({ status: 200 });
    expect(rx.requests).toHaveLength(1);
  });

  it('IP literals and localhost are refused without a lookup', async () => {
    const send = createSender({ allowPrivate: false });
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::127.0.0.1]', '[::ffff:0:127.0.0.1]', '[2002:7f00:1::]', 'localhost']) {
      await expect(send(req(`http://${host}:${rx.port}/hook`)), host).rejects.toThrow(/PROMPTD_WEBHOOK_ALLOW_PRIVATE/);
    }
    expect(rx.requests).toHaveLength(0);
  });

  it('redirects are not followed: a 302 is the attempt\'s answer', async () => {
    const inner = await startReceiver();
    const redirecting = http.createServer((_q, s) => s.writeHead(302, { location: inner.url }).end());
    try {
      await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
      const { port } = redirecting.address() as AddressInfo;
      await expect(createSender({ allowPrivate: true })(req(`http://127.0.0.1:${port}/`))).resolves.toEqual({ status: 302 });
      expect(inner.requests).toHaveLength(0);
    } finally {
      redirecting.close();
      await inner.close();
    }
  });

  it('a webhook saved while private targets were allowed is not delivered once they are not', async () => {
    process.env.PROMPTD_WEBHOOK_ALLOW_PRIVATE = '1';
    let core: TestCore;
    try {
      core = await makeCore();
    } finally {
      delete process.env.PROMPTD_WEBHOOK_ALLOW_PRIVATE;
    }
    try {
      const { webhook } = await core.webhooks.create({ url: rx.url, events: ['prompt.created'] }, actor);
      await core.prompts.create({ name: 'ssrf', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }, actor);
      await createWebhookDispatcher({ store: createStore(core.db), allowPrivate: false }).tick();
      expect(rx.requests).toHaveLength(0);
      const [d] = (await core.webhooks.deliveries(webhook.id)).items;
      expect(d).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
      expect(d!.lastError).toContain('PROMPTD_WEBHOOK_ALLOW_PRIVATE');
    } finally {
      await core.close();
    }
  });
});
