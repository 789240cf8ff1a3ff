// Usage recording for HTTP reads (read API definitions and renders, admin renders):
// the client is the token's name, else the User-Agent (docs/usage.md).
import type { Context } from 'hono';
import type { Core } from '../core/index.js';
import { clientName, outcomeOf, UNKNOWN_PROMPT, type UsageTransport } from '../core/usage/types.js';
import type { AuthEnv } from './auth.js';

/** The token name from the actor (`token:<name>#<id>`; `admin` for PROMPTD_ADMIN_TOKEN). */
function tokenName(actor: string | undefined): string | null {
  if (!actor) return null;
  const m = /^token:(.*)#\d+$/.exec(actor);
  return m ? m[1]! : actor;
}

export interface ServedRequest {
  /** The version being served, once known; 0 until then. */
  version: number;
  /** The label it is served through; '' for a pinned version. */
  label: string;
}

/**
 * Runs `fn`, then counts one fetch of `prompt` with the outcome it ended with. `fn`
 * fills in `served` as soon as the version is resolved, so a failed render still
 * counts against its version.
 */
export async function recordHttp<T>(core: Core, c: Context<AuthEnv>, transport: UsageTransport, prompt: string, served: ServedRequest, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome: 'ok' | ReturnType<typeof outcomeOf> = 'ok';
  try {
    return await fn();
  } catch (e) {
    outcome = outcomeOf(e);
    throw e;
  } finally {
    const token = tokenName(c.get('actor'));
    const client = clientName(token ?? c.req.header('user-agent'));
    // Nothing served (no such prompt or version): the requested name is not recorded.
    const name = served.version > 0 ? prompt : UNKNOWN_PROMPT;
    core.usage.record({ prompt: name, version: served.version, label: served.label, client, clientVersion: '', token, transport, outcome, latencyMs: performance.now() - started });
  }
}
