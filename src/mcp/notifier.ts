// One notifier per core (so per process): it follows the served catalog and the
// change feed once, and fans notifications out to every connected MCP server,
// whichever transport or session it belongs to; prompt list changes go only to the
// sessions whose label view changed. Bursts are coalesced here, once per view,
// instead of in every session.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../core/index.js';
import type { ChangeEvent } from '../core/types.js';
import { compileUriMatcher } from '../core/uri-template.js';
import { changesResourceListing, seesResources, tagsInScope, type McpSessionAuth } from '../core/mcp-scope.js';

export const COALESCE_MS = 200;

export interface Session {
  server: Server;
  /** The label view it serves: only changes to that view reach it. */
  label: string;
  /** URIs this session subscribed to with resources/subscribe. */
  subscriptions: Set<string>;
  /** Its tools follow the served prompts (per-prompt tools): tools/list_changed with prompts/list_changed. */
  toolsListChanged?: boolean;
  /** Who the client is and its scope (an MCP client token, or an OAuth token's label and `tag:` scopes); null: the full view. */
  auth?: McpSessionAuth | null;
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
  const each = (send: (s: Session) => Promise<void>, which: (s: Session) => boolean = () => true) => {
    for (const s of sessions) if (which(s)) send(s).catch((e) => log('notification not delivered', e));
  };

  // One coalescing window per label view: a burst of staging moves is one
  // notification to staging sessions and none to production ones.
  // Sessions limited to some tags (an MCP token's scope) hear only of changes to
  // prompts carrying one of them (before or after the change): one window per label
  // and scope.
  const promptsChangedByScope = new Map<string, () => void>();
  const scopeKey = (s: Session) => `${s.label}\n${s.auth?.scope.tags?.join(',') ?? '*'}`;
  const promptsChanged = (key: string) => {
    let fn = promptsChangedByScope.get(key);
    if (!fn) {
      fn = coalesce(
        () => each(async (s) => {
          await s.server.sendPromptListChanged();
          if (s.toolsListChanged) await s.server.sendToolListChanged();
        }, (s) => scopeKey(s) === key),
        COALESCE_MS,
      );
      promptsChangedByScope.set(key, fn);
    }
    fn();
  };
  // Only sessions that list resources at all (a tag-limited scope does not: mcp-scope.ts).
  const resourcesChanged = coalesce(() => each((s) => s.server.sendResourceListChanged(), (s) => seesResources(s.auth?.scope)), COALESCE_MS);

  // The catalog fires after it has reloaded, so a client reacting to the
  // notification with prompts/list already sees the new state.
  core.catalog.onServedChange((_events, labels, changed) => {
    if (!sessions.size) return;
    const keys = new Set<string>();
    for (const s of sessions) {
      if (!labels.has(s.label)) continue;
      const key = scopeKey(s);
      if (keys.has(key)) continue;
      const tags = s.auth?.scope.tags;
      if (!tags || (changed.get(s.label) ?? []).some((p) => tagsInScope({ tags }, p.tags))) keys.add(key);
    }
    for (const key of keys) promptsChanged(key);
  });

  core.feed.subscribe((events: ChangeEvent[]) => {
    if (!sessions.size) return;
    let listChanged = false;
    const touched = new Set<string>();
    const templates: string[] = [];
    for (const e of events) {
      // The listing shows uri, name, title, mimeType of public resources: a write to one
      // that was or is public may change it and what its subscribers read. A bound
      // resource's writes change neither, and are not announced (its URI may match a
      // template a client subscribed to: the write must not reveal it exists).
      if (e.entity === 'resource' && changesResourceListing(e)) {
        touched.add(e.entityKey);
        if (typeof e.details?.from === 'string') touched.add(e.details.from);
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
