// Usage recording for one MCP session: prompts/get and the get_prompt tool count each
// render by prompt, version, the session's label, the client named in initialize
// (`clientInfo.name` and `clientInfo.version`), transport and outcome (docs/usage.md).
// Only served prompts are counted by name: a name the session is not served counts as
// UNKNOWN_PROMPT, so a client cannot write names of its own into the usage tables.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../core/index.js';
import type { CatalogView } from '../core/catalog.js';
import { clientName, outcomeOf, UNKNOWN_PROMPT, USAGE_TEXT_MAX, usageText, type UsageOutcome, type UsageTransport } from '../core/usage/types.js';
import type { McpSessionAuth } from '../core/mcp-scope.js';

export interface UsageTracker {
  /**
   * Runs a render of `prompt`, counting it with the outcome it ends with and the version
   * `fn` reports through `served` (0 when it found no prompt).
   */
  render<T>(prompt: string, fn: (served: (version: number, versionId?: number) => void) => Promise<T>): Promise<T>;
  /** Counts a request refused before rendering (e.g. a non-string argument). */
  refused(prompt: string, outcome: UsageOutcome): void;
}

export function usageTracker(core: Core, server: Server, catalog: CatalogView, transport: UsageTransport, auth?: McpSessionAuth): UsageTracker {
  // A session opened with an MCP client token is that token's: its name is the client
  // (clientInfo is whatever the client says; the token is who we gave access to).
  const token = auth?.tokenName ?? null;
  type Client = { client: string; clientVersion: string };
  let client: Client | undefined = token !== null ? { client: token, clientVersion: '' } : undefined;
  const clientOf = (): Client => {
    if (client !== undefined) return client;
    const info = server.getClientVersion();
    if (!info) return { client: 'unknown', clientVersion: '' };
    // clientInfo is whatever the client sends: cleaned and cut (types.ts usageText).
    return (client = { client: clientName(info.name), clientVersion: usageText(typeof info.version === 'string' ? info.version : '', USAGE_TEXT_MAX.clientVersion) });
  };
  const count = (prompt: string, version: number, outcome: UsageOutcome, started: number, versionId?: number) =>
    core.usage.record({
      // No version served: the name asked for is not a prompt this session is served.
      prompt: version > 0 ? prompt : UNKNOWN_PROMPT,
      version,
      ...(versionId !== undefined ? { versionId } : {}),
      label: catalog.label,
      ...clientOf(),
      token,
      transport,
      outcome,
      latencyMs: performance.now() - started,
    });
  // Made on the first success, once initialize has named the client.
  let served: ((prompt: string, version: number, latencyMs: number, versionId?: number) => void) | undefined;
  return {
    async render(prompt, fn) {
      const started = performance.now();
      let version = 0;
      let versionId: number | undefined;
      try {
        const r = await fn((v, id) => {
          version = v;
          versionId = id;
        });
        const counter = served ?? core.usage.counter({ label: catalog.label, ...clientOf(), token, transport });
        // Kept once the client is known (a request before initialize counts as 'unknown').
        if (client !== undefined) served = counter;
        // A success served `prompt` at `version`: a name of the catalog.
        counter(prompt, version, performance.now() - started, versionId);
        return r;
      } catch (e) {
        count(prompt, version, outcomeOf(e), started, versionId);
        throw e;
      }
    },
    // Refused before rendering: the version the prompt would have been served at.
    refused: (prompt, outcome) => count(prompt, catalog.find(prompt)?.version.version ?? 0, outcome, performance.now()),
  };
}
