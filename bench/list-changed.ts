// 3. notifications/prompts/list_changed latency: from the HTTP response of an
// activating write (PUT /admin/v1/prompts/{name}/active) to the notification at an
// MCP client: same process (HTTP session on the writing server), another process
// (`promptd mcp` stdio child on the same SQLite file), another PostgreSQL instance.
// Writes are spaced so that the coalescing window (leading edge, then ≤ 1 per
// ~200 ms) never merges two of them: each notification answers one write, and
// each write is a leading edge.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { admin, BIN, ROOT } from './lib/proc.js';
import { createToggle } from './lib/prompts-api.js';
import { sleep, summarize, type Summary } from './lib/stats.js';

export interface LatencyResult extends Summary {
  writes: number;
  missed: number;
  /** notifications that reached the client before the write's HTTP response (counted as 0 ms) */
  beforeResponse: number;
}

const GAP_MS = 260;
const TIMEOUT_MS = 3_000;
/** Longer than the notifier's widest coalescing window (it widens during bursts, up to 2 s). */
const QUIET_MS = 2_500;

export type Listener = { client: Client; close(): Promise<void> };

export async function httpListener(mcpUrl: string): Promise<Listener> {
  const client = new Client({ name: 'bench-listener', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
  await client.connect(transport);
  return { client, close: () => client.close() };
}

export async function stdioListener(databaseUrl: string): Promise<Listener> {
  const client = new Client({ name: 'bench-listener', version: '1' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' } as Record<string, string>, stderr: 'ignore' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** Toggles the active version of a fresh prompt `writes` times through `writerBase`; times each notification at `listener`. */
export async function measureListChanged(writerBase: string, listener: Listener, name: string, writes: number): Promise<LatencyResult> {
  await createToggle(writerBase, name);
  let waiter: ((t: number) => void) | undefined;
  let lastNote = 0;
  listener.client.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
    lastNote = performance.now();
    waiter?.(lastNote);
  });
  await listener.client.listPrompts({});
  const activate = async (version: number) => {
    const r = await admin(writerBase, 'PUT', `/prompts/${name}/active`, { version });
    if (!r.ok) throw new Error(`activate: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
  };
  const next = () =>
    new Promise<number | undefined>((resolve) => {
      const t = setTimeout(() => resolve(undefined), TIMEOUT_MS);
      waiter = (at) => {
        clearTimeout(t);
        waiter = undefined;
        resolve(at);
      };
    });

  // Warm-up: until one notification arrives (the listener's stream is open), then
  // quiet for longer than the widest coalescing window so the next write is a
  // leading edge again.
  let version = 2;
  for (let i = 0; i < 10; i++) {
    const got = next();
    await activate(version);
    version = 3 - version;
    if ((await got) !== undefined) break;
  }
  await sleep(QUIET_MS);

  const latencies: number[] = [];
  let missed = 0;
  let beforeResponse = 0;
  for (let i = 0; i < writes; i++) {
    const wait = lastNote + GAP_MS - performance.now();
    if (wait > 0) await sleep(wait);
    const got = next();
    await activate(version);
    const responded = performance.now();
    version = 3 - version;
    const at = await got;
    if (at === undefined) {
      missed++;
      continue;
    }
    if (at < responded) beforeResponse++;
    latencies.push(Math.max(0, at - responded));
  }
  return { ...summarize(latencies), writes, missed, beforeResponse };
}
