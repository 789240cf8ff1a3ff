// MCP over stdio (`promptd mcp`, started by a desktop client). stdout carries the
// protocol and nothing else: every log line goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../core/index.js';
import { connectMcpServer, createMcpServer, type McpServerOptions } from './server.js';

export async function runStdio({ core, ...faceOptions }: { core: Core } & Pick<McpServerOptions, 'pageSize' | 'tools' | 'promptTools' | 'maxSubscriptions' | 'label'>): Promise<void> {
  // One line per problem: a desktop client shows our stderr as its log.
  const log = (msg: string, e: unknown) => {
    process.stderr.write(`promptd mcp: ${msg}: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}\n`);
  };
  const answered = new WeakSet<object>();
  await core.catalog.view(faceOptions.label ?? 'production').ready();
  const server = createMcpServer({ core, ...faceOptions, log });
  const transport = new StdioServerTransport();
  // The SDK's read loop hands a line it cannot read to onerror and answers nothing:
  // a SyntaxError from JSON.parse, a ZodError from the message schema. JSON-RPC says
  // to answer those with -32700 / -32600 and id null (the id could not be read).
  // Set before connect(), which keeps this handler and calls the server's after it.
  transport.onerror = (e) => {
    const code = e instanceof SyntaxError ? ErrorCode.ParseError : e?.name === 'ZodError' ? ErrorCode.InvalidRequest : undefined;
    if (code === undefined) return;
    answered.add(e);
    const message = code === ErrorCode.ParseError ? 'Parse error: the line is not JSON' : 'Invalid Request: not a JSON-RPC 2.0 request, notification or response';
    // The SDK types id as optional; the spec wants it present and null.
    transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage).catch((err: unknown) => log('cannot answer', err));
    log(`answered ${code}`, message);
  };
  const closed = new Promise<void>((resolve) => {
    // The client closing our stdin is the normal way a stdio session ends.
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    server.onerror = (e) => {
      if (!answered.has(e)) log('transport error', e);
    };
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
