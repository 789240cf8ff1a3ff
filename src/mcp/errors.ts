// Domain errors → JSON-RPC errors. A DomainError's message is written for the
// person at the client (it names the prompt, argument or URI), so it is passed
// through; anything else is a bug or an outage, reported as a bare -32603 so that
// stack traces, SQL and file paths never reach a client.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_TABLE, isDomainError } from '../core/errors.js';

export type ErrorLog = (msg: string, e: unknown) => void;

export function toMcpError(e: unknown, log: ErrorLog): McpError {
  if (e instanceof McpError) return plain(e, unprefixed(e));
  if (isDomainError(e)) {
    const code = ERROR_TABLE[e.code].jsonRpc;
    if (code === ErrorCode.InternalError) {
      log('internal error', e);
      return plain(new McpError(ErrorCode.InternalError, 'internal error'), 'internal error');
    }
    // `data.errors` carries the per-field detail for programs.
    return plain(new McpError(code, e.message, e.errors.length ? { errors: e.errors } : undefined), e.message);
  }
  log('internal error', e);
  return plain(new McpError(ErrorCode.InternalError, 'internal error'), 'internal error');
}

// McpError prefixes its message with "MCP error <code>: " and the SDK sends that
// message as is; the client adds the same prefix again. Keep the wire text clean.
function plain(err: McpError, message: string): McpError {
  err.message = message;
  return err;
}

function unprefixed(e: McpError): string {
  const prefix = `MCP error ${e.code}: `;
  return e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
}

/** An McpError whose message is just `message` on the wire (the client adds its own prefix). */
export function mcpError(code: number, message: string, data?: unknown): McpError {
  return plain(new McpError(code, message, data), message);
}

/** Wraps a request handler so every failure leaves as a mapped McpError. */
export function guarded<A extends unknown[], R>(log: ErrorLog, fn: (...a: A) => Promise<R>): (...a: A) => Promise<R> {
  return async (...a: A) => {
    try {
      return await fn(...a);
    } catch (e) {
      throw toMcpError(e, log);
    }
  };
}
