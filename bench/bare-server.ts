// The ceiling of the prompts/get comparison: a bare node:http server that speaks just
// enough Streamable HTTP for the bench client (initialize hands out a session id,
// notifications get 202, DELETE 200) and answers prompts/get with the same bytes
// promptd sends: the result, as promptd renders it, captured once from a running
// promptd, with only the JSON-RPC id spliced in. No MCP SDK, no Hono, no validation
// beyond JSON.parse: what node:http and the loopback socket cost per request.
//
//   node --import tsx bench/bare-server.ts <promptd-mcp-url> <prompt-count>
//
// Prints {"url": "..."} on stdout once listening on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RawSession } from './lib/mcp-raw.js';
import { ARG, ARG_VALUE, promptName } from './lib/fixture.js';

const [source, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 100);

// name → the result's JSON text, exactly as promptd serializes it.
const answers = new Map<string, string>();
{
  const s = new RawSession(new URL(source!));
  await s.open();
  for (let i = 0; i < count; i++) {
    const r = await s.request('prompts/get', { name: promptName(i), arguments: { [ARG]: ARG_VALUE } });
    if (!r.result) throw new Error(`prompts/get ${promptName(i)} from ${source}: ${JSON.stringify(r.error)}`);
    answers.set(promptName(i), JSON.stringify(r.result));
  }
  await s.close();
}

let sessions = 0;
const server = http.createServer((req, res) => {
  if (req.method === 'DELETE') return void res.writeHead(200).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number | string; method: string; params?: { name?: string; protocolVersion?: string } };
    if (msg.id === undefined) return void res.writeHead(202).end();
    if (msg.method === 'initialize') {
      const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params?.protocolVersion, capabilities: { prompts: {} }, serverInfo: { name: 'bare', version: '1' } } });
      return void res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': `bare-${++sessions}` }).end(body);
    }
    const result = msg.method === 'prompts/get' ? answers.get(msg.params?.name ?? '') : undefined;
    const body = result ? `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(msg.id)}}` : JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'unknown' } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'mcp-session-id': String(req.headers['mcp-session-id']) }).end(body);
  });
});

server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
