// fast-check generators of hostile JSON-RPC traffic for /mcp: wrong shapes and
// types, unknown methods, batches, deep nesting, huge strings, invalid UTF-8 bytes,
// forged session ids and cursors. Shared by mcp-fuzz.test.ts and bench/soak.ts.
import fc from 'fast-check';
import { anyJson, anyString } from './arbitraries.js';

export const MCP_METHODS = [
  'initialize', 'ping', 'prompts/list', 'prompts/get', 'resources/list', 'resources/read', 'resources/templates/list',
  'resources/subscribe', 'resources/unsubscribe', 'completion/complete', 'logging/setLevel', 'tools/list', 'tools/call',
  'sampling/createMessage', 'notifications/initialized', 'notifications/cancelled', 'notifications/roots/list_changed',
];

const promptName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('keep.alpha', 'f1', 'f-3', 'nope') }, { weight: 2, arbitrary: anyString });
const uri = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('mem://keep/doc', 'keep://x', 'keep://%2e%2e%2f', 'file:///etc/passwd', 'http://127.0.0.1:1/', 'keep://', 'mem://keep/doc\u0000', '\u0000') },
  { weight: 2, arbitrary: anyString },
  { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 200_000 }).map((n) => `keep://${'a'.repeat(n)}`) },
);

/** A cursor: forged, tampered, or one issued for another list (passed in at run time). */
export const cursor = (issued: string[]) =>
  fc.oneof(
    anyString,
    fc.constantFrom('', '.', 'a.b', 'eyJrIjoibWNwLXByb21wdHMiLCJ2IjoiYSJ9.AAAA', ...issued),
    fc.constantFrom(...(issued.length ? issued : ['x'])).chain((c) => fc.nat({ max: Math.max(0, c.length - 1) }).map((i) => `${c.slice(0, i)}${c[i] === 'A' ? 'B' : 'A'}${c.slice(i + 1)}`)),
  );

const paramsFor = (issued: string[]): Record<string, fc.Arbitrary<unknown>> => ({
  initialize: fc.record({ protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05'), anyString), capabilities: fc.oneof(fc.constant({}), anyJson), clientInfo: fc.oneof(fc.constant({ name: 'fz', version: '1' }), anyJson) }, { requiredKeys: [] }),
  'prompts/list': fc.record({ cursor: cursor(issued) }, { requiredKeys: [] }),
  'resources/list': fc.record({ cursor: cursor(issued) }, { requiredKeys: [] }),
  'prompts/get': fc.record({ name: promptName, arguments: fc.oneof({ weight: 4, arbitrary: fc.record({ who: anyString }) }, fc.dictionary(fc.oneof(fc.constantFrom('who', 'x'), anyString), anyString, { maxKeys: 3 }), anyJson) }, { requiredKeys: ['name'] }),
  'resources/read': fc.record({ uri }),
  'resources/subscribe': fc.record({ uri }),
  'resources/unsubscribe': fc.record({ uri }),
  'completion/complete': fc.record({
    ref: fc.oneof(fc.record({ type: fc.constant('ref/prompt'), name: promptName }), fc.record({ type: fc.constant('ref/resource'), uri: fc.oneof(fc.constant('keep://{a}'), uri) }), anyJson),
    argument: fc.oneof(fc.record({ name: fc.oneof(fc.constantFrom('who', 'a'), anyString), value: anyString }), anyJson),
    context: fc.oneof(fc.record({ arguments: fc.dictionary(anyString, anyString, { maxKeys: 2 }) }), anyJson),
  }, { requiredKeys: ['ref', 'argument'] }),
  'logging/setLevel': fc.record({ level: fc.oneof(fc.constantFrom('debug', 'info', 'emergency'), anyString) }),
});

const id = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 1e6 }) }, { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null), fc.double(), anyJson) });

/** One JSON-RPC message: mostly well-formed with hostile params, sometimes broken in shape. */
export const rpcMessage = (issued: string[] = []) => {
  const params = paramsFor(issued);
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('prompts/get', 'resources/read', 'completion/complete', 'prompts/list', 'resources/list', 'resources/subscribe') },
    { weight: 3, arbitrary: fc.constantFrom(...MCP_METHODS) },
    { weight: 1, arbitrary: anyString },
  );
  const wellFormed = method.chain((m) =>
    fc.record({
      jsonrpc: fc.oneof({ weight: 12, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.oneof(fc.constant('1.0'), anyJson) }),
      id,
      method: fc.constant(m),
      params: fc.oneof({ weight: 5, arbitrary: (Object.hasOwn(params, m) ? params[m] : undefined) ?? fc.constant({}) }, { weight: 1, arbitrary: anyJson }),
    }, { requiredKeys: ['jsonrpc', 'method'] }),
  );
  return fc.oneof({ weight: 10, arbitrary: wellFormed }, { weight: 1, arbitrary: anyJson });
};

const nested = (depth: number, inner: string) => `${'{"a":['.repeat(depth)}${inner}${']}'.repeat(depth)}`;

/** A POST body for /mcp: one message, a batch, or bytes that are not what they claim. */
export const rpcBody = (issued: string[] = []): fc.Arbitrary<string | Uint8Array> =>
  fc.oneof(
    { weight: 10, arbitrary: rpcMessage(issued).map((m) => JSON.stringify(m)) },
    { weight: 2, arbitrary: fc.array(rpcMessage(issued), { minLength: 0, maxLength: 5 }).map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((d) => `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":${nested(d, '1')}}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((d) => nested(d, '')) },
    { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 3_000_000 }).map((n) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'keep.alpha', arguments: { who: 'x'.repeat(n) } } })) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[', 'null', '[]', '"x"', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":1,"method":"ping"', '\u0000', '1e999') },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }) },
    { weight: 1, arbitrary: fc.constantFrom(
      // Invalid UTF-8 inside an otherwise valid message: lone continuation bytes, overlongs, surrogates.
      Uint8Array.from([...Buffer.from('{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"'), 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, ...Buffer.from('"}}')]),
      Uint8Array.from([...Buffer.from('{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"keep://'), 0x80, 0xfe, ...Buffer.from('"}}')]),
    ) },
  );

/** Session ids a client may forge. */
export const forgedSession = fc.oneof(anyString.map((s) => s.replace(/[^\x21-\x7e]/g, 'x').slice(0, 300)), fc.uuid(), fc.constantFrom('', '00000000-0000-0000-0000-000000000000', '../', 'null'));

/** A whole /mcp request: body, which session ('real' = the caller's live one), method and headers. */
export const mcpRequest = (issued: string[] = []) =>
  fc.record({
    body: rpcBody(issued),
    session: fc.oneof({ weight: 6, arbitrary: fc.constant<string | undefined>('real') }, { weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: forgedSession }),
    method: fc.oneof({ weight: 12, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS') }),
    contentType: fc.oneof({ weight: 10, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', '') }),
    accept: fc.oneof({ weight: 10, arbitrary: fc.constant('application/json, text/event-stream') }, { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/event-stream', '*/*', '') }),
    protocol: fc.oneof({ weight: 10, arbitrary: fc.constant('2025-06-18') }, { weight: 1, arbitrary: fc.constantFrom('2025-11-25', '1999-01-01', '', 'x'.repeat(300)) }),
  });
