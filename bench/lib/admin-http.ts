// A light admin API client for load generation: node:http with one keep-alive
// connection per writer, as bench/lib/mcp-raw.ts is for MCP. The fetch client (undici)
// cost about as much CPU per version write as the server itself on this 2-CPU machine
// kind (bench/writes-ab.ts prints both), and with one writer it runs between the
// server's turns, so its cost was in the server's writes/s figure.
import http from 'node:http';
import { ADMIN_TOKEN } from './proc.js';

export interface AdminConnection {
  post(path: string, body: unknown): Promise<{ status: number; body: string }>;
  close(): void;
}

export function adminConnection(base: string): AdminConnection {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    post(path, body) {
      const text = JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent, host: url.hostname, port: url.port, path: `/admin/v1${path}`, method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.setTimeout(30_000, () => req.destroy(new Error('request timed out')));
        req.on('error', reject);
        req.end(text);
      });
    },
    close: () => agent.destroy(),
  };
}
