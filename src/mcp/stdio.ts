// MCP over stdio (`promptd mcp`, started by a desktop client). stdout carries the
// protocol and nothing else: every log line goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Core } from '../core/index.js';
import { connectMcpServer, createMcpServer, type McpServerOptions } from './server.js';

export async function runStdio({ core, ...faceOptions }: { core: Core } & Pick<McpServerOptions, 'pageSize' | 'tools' | 'promptTools' | 'maxSubscriptions' | 'label'>): Promise<void> {
  const log = (msg: string, e: unknown) => {
    process.stderr.write(`promptd mcp: ${msg}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  };
  await core.catalog.view(faceOptions.label ?? 'production').ready();
  const server = createMcpServer({ core, ...faceOptions, log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    // The client closing our stdin is the normal way a stdio session ends.
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    server.onerror = (e) => log('transport error', e);
    const inner = server.onclose;
    server.onclose = () => {
      inner?.();
      resolve();
    };
  });
  await connectMcpServer(server, transport, core);
  await closed;
  await server.close();
}
