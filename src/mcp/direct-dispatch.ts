// prompts/get and prompts/list without the SDK's per-request dispatch (issue 21). The SDK's Protocol
// checks every incoming message against three zod schemas (two of which fail for a
// request), creates an AbortController, tests the params against the task schema (a
// failing zod parse) and chains four promises before our handler runs: about a tenth
// of a prompts/get's CPU (docs/benchmarks.md, section 1), and objects that lived long
// enough to be promoted to V8's old generation: a walk of 2,000 prompts/list pages
// promoted 5.8 MiB through it (bench/history.md, section 26). For a plain request of
// those methods this calls the handler the Server holds for it (the SDK's own wrapper: the
// request schema's parse, then ours) and sends the answer as the Protocol does, through
// transport.send, so the shaping and metrics wrappers around the transport see both
// messages as before. Anything else (other methods, task-augmented or related-task
// requests) goes to the Server untouched.
//
// Kept from the Protocol: a notifications/cancelled for a request still in flight here
// suppresses its answer, as the spec asks. Not kept: the handler's `extra.signal` never
// aborts (both handlers answer from memory and do not look at it).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, RELATED_TASK_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import { requestHandlers, type RequestHandler as Handler } from './sdk-request-handlers.js';

type Obj = Record<string, unknown>;

const DIRECT_METHODS = ['prompts/get', 'prompts/list'] as const;
const NEVER_ABORTED = new AbortController().signal;

/** A request the Protocol would dispatch with nothing of its own to add (no task, no related task). */
function isPlainRequest(m: Obj, methods: ReadonlyMap<string, Handler>): boolean {
  if (typeof m.method !== 'string' || !methods.has(m.method) || m.jsonrpc !== '2.0') return false;
  if (!(typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id)))) return false;
  const params = m.params;
  if (params === undefined) return true;
  // Not a request by the SDK's schema: the Protocol reports it to onerror and answers nothing.
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const p = params as Obj;
  if ('task' in p) return false;
  const meta = p._meta;
  return !(typeof meta === 'object' && meta !== null && RELATED_TASK_META_KEY in meta);
}

/**
 * Call right after server.connect(transport), before the transport wrappers
 * (protocol-shape.ts, observe.ts): they then see the requests answered here and
 * their answers.
 */
export function dispatchDirectly(server: Server, transport: Transport): void {
  const receive = transport.onmessage;
  if (!receive) throw new Error('dispatchDirectly: connect the server to the transport first');
  const handlers = requestHandlers(server, DIRECT_METHODS, 'src/mcp/direct-dispatch.ts');
  const methods = new Map<string, Handler>(DIRECT_METHODS.map((m) => [m, handlers.get(m)!]));
  const failed = (e: unknown) => server.onerror?.(new Error(`Failed to send response: ${String(e)}`));
  // Requests answered here and not yet answered: id → cancelled by the client.
  const inFlight = new Map<string | number, boolean>();
  const answer = (id: string | number, reply: JSONRPCMessage) => {
    const cancelled = inFlight.get(id);
    inFlight.delete(id);
    return cancelled ? undefined : transport.send(reply);
  };

  transport.onmessage = (message, extra) => {
    const m = message as Obj;
    if (m.method === 'notifications/cancelled' && inFlight.size > 0) {
      const requestId = (m.params as Obj | undefined)?.requestId;
      if ((typeof requestId === 'string' || typeof requestId === 'number') && inFlight.has(requestId)) inFlight.set(requestId, true);
    }
    if (!isPlainRequest(m, methods)) return receive(message, extra);
    const id = m.id as string | number;
    inFlight.set(id, false);
    const handlerExtra = {
      signal: NEVER_ABORTED,
      sessionId: transport.sessionId,
      _meta: (m.params as Obj | undefined)?._meta,
      requestId: id,
      authInfo: extra?.authInfo,
      requestInfo: extra?.requestInfo,
      sendNotification: (n: Parameters<Server['notification']>[0]) => server.notification(n, { relatedRequestId: id }),
      sendRequest: () => Promise.reject(new Error('prompts/get and prompts/list handlers send no requests')),
    };
    methods
      .get(m.method as string)!(message, handlerExtra)
      .then(
        (result) => answer(id, { jsonrpc: '2.0', id, result } as JSONRPCMessage),
        // The error answer the Protocol builds (shared/protocol.js, _onrequest).
        (error: { code?: unknown; message?: string; data?: unknown }) =>
          answer(id, {
            jsonrpc: '2.0',
            id,
            error: {
              code: Number.isSafeInteger(error?.code) ? (error.code as number) : ErrorCode.InternalError,
              message: error?.message ?? 'Internal error',
              ...(error?.data !== undefined ? { data: error.data } : {}),
            },
          } as JSONRPCMessage),
      )
      .catch(failed);
  };
}
