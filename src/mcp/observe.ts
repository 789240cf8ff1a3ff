// MCP metrics, taken on the transport: every request a server answers and every
// notification it sends passes through a connected transport's onmessage/send, whatever
// the transport, so one wrapper sees them all without touching any handler.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McpMetrics, McpTransportName } from '../metrics/metrics.js';

/** The method label of a request no handler exists for: a client's typo must not mint a series. */
export const UNKNOWN_METHOD = 'unknown';

type Obj = Record<string, unknown>;

/**
 * Wraps a transport already connected to a Server (connectMcpServer first), so each
 * answered request is counted by method and outcome and timed, a prompts/get that
 * succeeds counts as a prompt served under the session's label, and each notification
 * sent is counted by method.
 */
export function observeMcpTransport(transport: Transport, metrics: McpMetrics, session: { transport: McpTransportName; label: string }): void {
  const receive = transport.onmessage;
  const send = transport.send.bind(transport);
  if (!receive) throw new Error('observeMcpTransport: connect the server to the transport first');
  // Request id → what was asked and when; an entry lives only until its response.
  const pending = new Map<string | number, { method: string; started: number }>();

  transport.onmessage = (message, extra) => {
    const m = message as Obj;
    if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) {
      pending.set(m.id, { method: m.method, started: performance.now() });
    } else if (m.method === 'notifications/cancelled') {
      // A cancelled request gets no response: forget it.
      const id = (m.params as Obj | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') pending.delete(id);
    }
    receive(message, extra);
  };

  transport.send = (message, options) => {
    const m = message as Obj;
    if (typeof m.method === 'string') {
      if (!('id' in m)) metrics.notification(session.transport, m.method);
    } else if ((typeof m.id === 'string' || typeof m.id === 'number') && ('result' in m || 'error' in m)) {
      const asked = pending.get(m.id);
      if (asked) {
        pending.delete(m.id);
        const code = (m.error as { code?: unknown } | undefined)?.code;
        const outcome = 'error' in m ? String(typeof code === 'number' ? code : ErrorCode.InternalError) : 'ok';
        // Only methods with a handler are named (anything else is -32601).
        const method = code === ErrorCode.MethodNotFound ? UNKNOWN_METHOD : asked.method;
        metrics.request(session.transport, method, outcome, (performance.now() - asked.started) / 1000);
        if (method === 'prompts/get' && outcome === 'ok') metrics.promptServed(session.label);
      }
    }
    return send(message, options);
  };
}
