// The one place that reads the MCP SDK's private request-handler map. The SDK has no
// public accessor for a Server's handlers, and two features need them: answering
// schema failures with -32602 (server.ts, invalidParamsForSchemaErrors) and calling the
// prompts/get handler without the Protocol's per-request dispatch (direct-dispatch.ts).
// If a new SDK renames or reshapes the map, this throws when the first server is set up
// (at start-up), naming the method it looked for, instead of a feature quietly degrading.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/** The Server's live method → handler map, checked to hold a handler for each of `methods`. */
export function requestHandlers(server: Server, methods: readonly string[], user: string): Map<string, RequestHandler> {
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  const missing = handlers instanceof Map ? methods.filter((m) => typeof handlers.get(m) !== 'function') : methods;
  if (!(handlers instanceof Map) || missing.length > 0) {
    throw new Error(
      `the MCP SDK no longer keeps ${missing.join(', ')} in Server._requestHandlers (a Map of method → handler); ` +
        `${user} must be updated for this SDK version`,
    );
  }
  return handlers as Map<string, RequestHandler>;
}
