// Slow clients cannot pin connections: the listening server (startServer, as used by
// `promptd serve`) drops a client that trickles its headers or its body. Timeouts are
// lowered through the same option the defaults come from.
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVER_TIMEOUTS, startServer, type RunningServer } from '../../src/server.js';
import { createLogger } from '../../src/logger.js';
import { tempDbUrl } from '../helpers/db.js';

let srv: RunningServer;
let port: number;

beforeAll(async () => {
  srv = await startServer({
    databaseUrl: await tempDbUrl(),
    port: 0,
    seed: false,
    adminToken: 'slow-token',
    logger: createLogger('silent'),
    timeouts: { headersMs: 600, requestMs: 1_500, keepAliveMs: 500, checkIntervalMs: 100 },
  });
  port = Number(new URL(srv.url).port);
});
afterAll(() => srv?.close());

/** Opens a socket, writes `first`, then `drip` every 100 ms; resolves with what the server said and when it hung up. */
function trickle(first: string, drip: string): Promise<{ ms: number; reply: string }> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    let reply = '';
    let timer: NodeJS.Timeout | undefined;
    // The drip starts once `first` is written: a socket buffers writes before it connects,
    // and a drip queued ahead of the request line would be a parse error (400), not slowness.
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(first);
      timer = setInterval(() => socket.writable && socket.write(drip), 100);
    });
    socket.on('data', (d) => (reply += d));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ ms: Date.now() - t0, reply });
    });
    socket.on('error', () => {});
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error('the server kept a trickling connection open for 10 s'));
    }, 10_000).unref();
  });
}

it('the defaults bound headers to 20 s and whole requests to 60 s', () => {
  expect(SERVER_TIMEOUTS.headersMs).toBeLessThanOrEqual(20_000);
  expect(SERVER_TIMEOUTS.requestMs).toBeLessThanOrEqual(60_000);
  expect(SERVER_TIMEOUTS.checkIntervalMs).toBeLessThanOrEqual(SERVER_TIMEOUTS.headersMs);
});

it('a client that never finishes its headers is cut off (slowloris)', async () => {
  const { ms, reply } = await trickle('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n');
  expect(ms).toBeLessThan(3_000);
  expect(reply === '' || reply.startsWith('HTTP/1.1 408'), reply).toBe(true);
});

it('a client that trickles its body is cut off after the request timeout', async () => {
  const head = 'POST /admin/v1/prompts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer slow-token\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{';
  const { ms, reply } = await trickle(head, ' ');
  expect(ms).toBeGreaterThanOrEqual(1_000);
  expect(ms).toBeLessThan(5_000);
  expect(reply === '' || /^HTTP\/1\.1 (408|413|400)/.test(reply)).toBe(true);
});

it('normal requests still work, and an idle keep-alive connection is closed', async () => {
  expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
  const { ms, reply } = await new Promise<{ ms: number; reply: string }>((resolve) => {
    const t0 = Date.now();
    let reply = '';
    const s = net.connect(port, '127.0.0.1', () => s.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    s.on('data', (d) => (reply += d));
    s.on('close', () => resolve({ ms: Date.now() - t0, reply }));
  });
  expect(reply).toMatch(/^HTTP\/1\.1 200/);
  expect(ms).toBeLessThan(3_000);
});
