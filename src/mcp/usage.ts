// Usage recording for one MCP session: prompts/get and the get_prompt tool count each
// render by prompt, version, the session's label, the client named in initialize
// (`clientInfo.name clientInfo.version`), transport and outcome (docs/usage.md).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../core/index.js';
import type { CatalogView } from '../core/catalog.js';
import { clientName, outcomeOf, type UsageOutcome, type UsageTransport } from '../core/usage/types.js';
import type { McpSessionAuth } from '../core/mcp-scope.js';

export interface UsageTracker {
  /** Runs a render of `prompt`, counting it with the outcome it ends with. */
  render<T>(prompt: string, fn: () => Promise<T>): Promise<T>;
  /** Counts a request refused before rendering (e.g. a non-string argument). */
  refused(prompt: string, outcome: UsageOutcome): void;
}

export function usageTracker(core: Core, server: Server, catalog: CatalogView, transport: UsageTransport, auth?: McpSessionAuth): UsageTracker {
  // A session opened with an MCP client token is that token's: its name is the client
  // (clientInfo is whatever the client says; the token is who we gave access to).
  const token = auth?.tokenName ?? null;
  let client: string | undefined = token ?? undefined;
  const clientOf = (): string => {
    if (client !== undefined) return client;
    const info = server.getClientVersion();
    if (!info) return 'unknown';
    // clientInfo is whatever the client sends.
    return (client = clientName(`${info.name} ${info.version}`));
  };
  const count = (prompt: string, outcome: UsageOutcome, started: number) =>
    core.usage.record({
      prompt,
      version: catalog.find(prompt)?.version.version ?? 0,
      label: catalog.label,
      client: clientOf(),
      token,
      transport,
      outcome,
      latencyMs: performance.now() - started,
    });
  return {
    async render(prompt, fn) {
      const started = performance.now();
      try {
        const r = await fn();
        count(prompt, 'ok', started);
        return r;
      } catch (e) {
        count(prompt, outcomeOf(e), started);
        throw e;
      }
    },
    refused: (prompt, outcome) => count(prompt, outcome, performance.now()),
  };
}
