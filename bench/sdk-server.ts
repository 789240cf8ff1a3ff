// Baseline for the prompts/get comparison: the official SDK's McpServer holding the
// same prompts in memory (registerPrompt, same rendered text), over the SDK's own
// stateful Streamable HTTP transport on node:http. Runs in its own process:
//
//   node --import tsx bench/sdk-server.ts <prompt-count> [sse|json]
//
// `sse` (the transport's default) answers each POST with a one-event SSE stream;
// `json` (enableJsonResponse: true) answers with a JSON body, the SDK's best case.
//
// Prints {"url": "..."} on stdout once listening on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ARG, promptDescription, promptName, renderPrompt } from './lib/fixture.js';

const count = Number(process.argv[2] ?? 100);
const enableJsonResponse = process.argv[3] === 'json';

function newServer(): McpServer {
  const server = new McpServer({ name: 'sdk-baseline', version: '1.0.0' }, { capabilities: { prompts: { listChanged: true } } });
  for (let i = 0; i < count; i++) {
    server.registerPrompt(promptName(i), { description: promptDescription(i), argsSchema: { [ARG]: z.string().describe('who the review is for') } }, (args) => ({
      description: promptDescription(i),
      messages: [{ role: 'user', content: { type: 'text', text: renderPrompt(i, args[ARG]!) } }],
    }));
  }
  return server;
}

const transports = new Map<string, StreamableHTTPServerTransport>();

const httpServer = http.createServer(async (req, res) => {
  try {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (existing) {
      await existing.handleRequest(req, res);
      return;
    }
    if (sid !== undefined || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse,
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await newServer().connect(transport);
    await transport.handleRequest(req, res);
  } catch (e) {
    process.stderr.write(`sdk-server: ${e instanceof Error ? e.stack : String(e)}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  }
});

httpServer.keepAliveTimeout = 5_000;
httpServer.listen(0, '127.0.0.1', () => {
  const { port } = httpServer.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
});

const stop = () => httpServer.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
