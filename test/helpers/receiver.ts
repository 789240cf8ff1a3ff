// A real webhook receiver on 127.0.0.1: records every request; answers with the
// current `status`, or never answers while `hang` is set.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

export async function startReceiver() {
  const requests: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const state = { status: 200, hang: false };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests.push({ headers: req.headers, body, path: req.url ?? '/' });
      for (const w of waiters.splice(0)) (requests.length >= w.n ? w.resolve : () => waiters.push(w))();
      if (state.hang) return;
      res.writeHead(state.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    state,
    /** Resolves once `n` requests in total have arrived. */
    received(n: number): Promise<void> {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
