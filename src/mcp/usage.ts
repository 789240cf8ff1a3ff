// Usage recording for one MCP session: prompts/get and the get_prompt tool count each
// render by prompt, version, the session's label, the client named in initialize
// (`clientInfo.name clientInfo.version`), transport and outcome (docs/usage.md).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../core/index.js';
import type { CatalogView } from '../core/catalog.js';
import { clientName, outcomeOf, type UsageOutcome, type UsageTransport } from '../core/usage/types.js';
import type { McpSessionAuth } from '../core/mcp-scope.js';

export interface UsageTracker {
  /**
   * Runs a render of `prompt`, counting it with the outcome it ends with and the version
   * `fn` reports through `served` (0 when it found no prompt).
   */
  render<T>(prompt: string, fn: (served: (version: number) => void) => Promise<T>): Promise<T>;
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
  const count = (prompt: string, version: number, outcome: UsageOutcome, started: number) =>
    core.usage.record({
      prompt,
      version,
      label: catalog.label,
      client: clientOf(),
      token,
      transport,
      outcome,
      latencyMs: performance.now() - started,
    });
  // Made on the first success, once initialize has named the client.
  let served: ((prompt: string, version: number, latencyMs: number) => void) | undefined;
  return {
    async render(prompt, fn) {
      const started = performance.now();
      let version = 0;
      try {
        const r = await fn((v) => (version = v));
        const counter = served ?? core.usage.counter({ label: catalog.label, client: clientOf(), token, transport });
        // Kept once the client is known (a request before initialize counts as 'unknown').
        if (client !== undefined) served = counter;
        counter(prompt, version, performance.now() - started);
        return r;
      } catch (e) {
        count(prompt, version, outcomeOf(e), started);
        throw e;
      }
    },
    // Refused before rendering: the version the prompt would have been served at.
    refused: (prompt, outcome) => count(prompt, catalog.find(prompt)?.version.version ?? 0, outcome, performance.now()),
  };
}
