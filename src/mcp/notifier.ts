// One notifier per core (so per process): it follows the served catalog and the
// change feed once, and fans notifications out to every connected MCP server,
// whichever transport or session it belongs to. Bursts are coalesced here, once,
// instead of in every session.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../core/index.js';
import type { ChangeEvent } from '../core/types.js';
import { compileUriMatcher } from '../core/uri-template.js';

export const COALESCE_MS = 200;

export interface Session {
  server: Server;
  /** URIs this session subscribed to with resources/subscribe. */
  subscriptions: Set<string>;
  /** Its tools follow the served prompts (per-prompt tools): tools/list_changed with prompts/list_changed. */
  toolsListChanged?: boolean;
}

export interface Notifier {
  add(session: Session): () => void;
  size(): number;
}

type Log = (msg: string, e: unknown) => void;

/**
 * Leading edge immediately, then at most one trailing call per window while calls
 * keep coming; the window doubles during a sustained burst (up to `maxMs`) and
 * resets after a quiet window. A lone edit is announced at once; 300 writes over
 * 8 s give ~8 calls instead of 40; the last state is always announced after the
 * last trigger.
 */
export function coalesce(fn: () => void, ms: number, maxMs = ms * 10): () => void {
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  let window = ms;
  const tick = () => {
    if (pending) {
      pending = false;
      fn();
      window = Math.min(window * 2, maxMs);
      timer = setTimeout(tick, window);
    } else {
      timer = undefined;
      window = ms;
    }
  };
  return () => {
    if (timer) {
      pending = true;
      return;
    }
    fn();
    timer = setTimeout(tick, window);
  };
}

const notifiers = new WeakMap<Core, Notifier>();

export function notifierFor(core: Core, log: Log = defaultLog): Notifier {
  let n = notifiers.get(core);
  if (!n) {
    n = createNotifier(core, log);
    notifiers.set(core, n);
  }
  return n;
}

function defaultLog(msg: string, e: unknown) {
  process.stderr.write(`promptd mcp: ${msg}: ${e instanceof Error ? e.message : String(e)}\n`);
}

function createNotifier(core: Core, log: Log): Notifier {
  const sessions = new Set<Session>();
  // A notification to a session that just went away must not disturb the others.
  const each = (send: (s: Session) => Promise<void>) => {
    for (const s of sessions) send(s).catch((e) => log('notification not delivered', e));
  };

  const promptsChanged = coalesce(
    () => each(async (s) => {
      await s.server.sendPromptListChanged();
      if (s.toolsListChanged) await s.server.sendToolListChanged();
    }),
    COALESCE_MS,
  );
  const resourcesChanged = coalesce(() => each((s) => s.server.sendResourceListChanged()), COALESCE_MS);

  // The catalog fires after it has reloaded, so a client reacting to the
  // notification with prompts/list already sees the new state.
  core.catalog.onServedChange(() => {
    if (sessions.size) promptsChanged();
  });

  core.feed.subscribe((events: ChangeEvent[]) => {
    if (!sessions.size) return;
    let listChanged = false;
    const touched = new Set<string>();
    const templates: string[] = [];
    for (const e of events) {
      if (e.entity === 'resource') {
        touched.add(e.entityKey);
        if (typeof e.details?.from === 'string') touched.add(e.details.from);
        // The listing shows uri, name, title, mimeType: any write may change it.
        listChanged = true;
      } else if (e.entity === 'resource_template') {
        templates.push(e.entityKey);
        listChanged = true;
      }
    }
    if (listChanged) resourcesChanged();
    if (!touched.size && !templates.length) return;
    const matchers = templates.map(compileUriMatcher);
    for (const s of sessions) {
      for (const uri of s.subscriptions) {
        if (touched.has(uri) || matchers.some((m) => m.match(uri))) {
          s.server.sendResourceUpdated({ uri }).catch((e) => log('resources/updated not delivered', e));
        }
      }
    }
  });

  return {
    add(session) {
      sessions.add(session);
      return () => sessions.delete(session);
    },
    size: () => sessions.size,
  };
}
