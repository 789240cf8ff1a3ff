// `serve` binds its port before it touches the database, so a port in use is one
// line and nothing else happened (no migrations, no seed, no first-run token).
import { createServer } from 'node:net';

export function listenError(e: unknown, host: string, port: number): Error {
  const code = (e as NodeJS.ErrnoException).code;
  const at = `${host}:${port}`;
  if (code === 'EADDRINUSE') return new Error(`port ${port} is already in use on ${host} (another promptd?); choose another with --port or PORT`);
  if (code === 'EACCES') return new Error(`not allowed to listen on ${at} (ports below 1024 need privileges); choose another with --port or PORT`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new Error(`cannot listen on ${at}: ${host} is not an address of this machine; check --host or HOST`);
  return new Error(`cannot listen on ${at}: ${(e as Error).message}`);
}

export function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', (e) => reject(listenError(e, host, port)));
    s.listen({ host, port, exclusive: true }, () => s.close(() => resolve()));
  });
}
