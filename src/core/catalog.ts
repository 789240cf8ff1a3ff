// What MCP serves: the active version of every unarchived prompt, compiled and kept
// in memory so prompts/list and prompts/get never touch the database in the steady
// state. Reloaded per prompt from the change log.
import type { Db } from '../db/create-db.js';
import type { ChangeFeed } from './change-feed.js';
import type { CursorCodec } from './cursor.js';
import { DomainError } from './errors.js';
import { renderVersion, type ResourceResolver } from './render.js';
import { toVersion, versionInclude, type VersionRow } from './repo/prompts-repo.js';
import type { Argument, ChangeEvent, RenderedPrompt, Version } from './types.js';
import type { Icon } from './schemas.js';

export interface ServedPrompt {
  name: string;
  title: string | null;
  description: string | null;
  icons: Icon[] | null;
  arguments: Argument[];
  version: Version;
}

export interface CompletionResult {
  values: string[];
  total: number;
  hasMore: boolean;
}

const MAX_COMPLETIONS = 100;

export function createServedCatalog({ db, feed, resolver, cursors }: { db: Db; feed: ChangeFeed; resolver: ResourceResolver; cursors: CursorCodec }) {
  const byName = new Map<string, ServedPrompt>();
  let sorted: string[] = [];
  const listeners = new Set<(events: ChangeEvent[]) => void>();
  let loaded: Promise<void> | undefined;

  const toServed = (name: string, row: VersionRow): ServedPrompt => {
    const version = toVersion(row);
    return { name, title: version.title, description: version.description, icons: version.icons, arguments: version.arguments, version };
  };

  async function loadWhere(where: { name?: { in: string[] } }) {
    const rows = await db.prisma.prompt.findMany({
      where: { ...where, archived: false, activeVersionId: { not: null } },
      select: { name: true, activeVersion: { include: versionInclude } },
    });
    return rows.map((r) => toServed(r.name, r.activeVersion as VersionRow));
  }

  function resort() {
    sorted = [...byName.keys()].sort(compareNames);
  }

  async function onEvents(events: ChangeEvent[]) {
    const names = new Set<string>();
    for (const e of events) {
      if (e.entity !== 'prompt' || !e.served) continue;
      names.add(e.entityKey);
      const from = e.details?.from;
      if (typeof from === 'string') names.add(from);
    }
    if (!names.size) return;
    const fresh = await loadWhere({ name: { in: [...names] } });
    for (const n of names) byName.delete(n);
    for (const p of fresh) byName.set(p.name, p);
    resort();
    const served = events.filter((e) => e.entity === 'prompt' && e.served);
    for (const fn of listeners) fn(served);
  }

  return {
    /** Loads everything once and starts following the change log. */
    ready(): Promise<void> {
      loaded ??= (async () => {
        feed.subscribe(onEvents);
        for (const p of await loadWhere({})) byName.set(p.name, p);
        resort();
      })();
      return loaded;
    },
    onServedChange(fn: (events: ChangeEvent[]) => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    size: () => sorted.length,
    list(opts: { cursor?: string; limit: number }): { prompts: ServedPrompt[]; nextCursor?: string } {
      const after = opts.cursor !== undefined ? cursors.decode<string>('mcp-prompts', opts.cursor) : undefined;
      const start = after === undefined ? 0 : upperBound(sorted, after);
      const names = sorted.slice(start, start + opts.limit);
      const prompts = names.map((n) => byName.get(n)!);
      const more = start + opts.limit < sorted.length;
      return { prompts, ...(more && names.length ? { nextCursor: cursors.encode('mcp-prompts', names.at(-1)) } : {}) };
    },
    find(name: string): ServedPrompt | undefined {
      return byName.get(name);
    },
    async render(name: string, args: Record<string, string>): Promise<RenderedPrompt> {
      const p = byName.get(name);
      if (!p) throw new DomainError('not_found', `prompt "${name}" not found: no active prompt has that name (prompts/list shows what is served)`);
      return renderVersion(name, p.version, args, resolver);
    },
    complete(name: string, argument: string, value: string, context: Record<string, string> = {}): CompletionResult {
      const p = byName.get(name);
      if (!p) throw new DomainError('not_found', `prompt "${name}" not found`);
      const a = p.arguments.find((x) => x.name === argument);
      if (!a) throw new DomainError('validation', `prompt "${name}" has no argument "${argument}"`);
      void context; // choices are static per argument; context is accepted for clients that send it
      return rankCompletions(a.choices ?? [], value);
    },
  };
}

export type ServedCatalog = ReturnType<typeof createServedCatalog>;

// Byte-wise comparison, matching SQL's ordering of the same names.
const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function upperBound(arr: string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Prefix matches first, then substring matches; case-insensitive; at most 100. */
export function rankCompletions(candidates: readonly string[], value: string): CompletionResult {
  const v = value.toLowerCase();
  const prefix: string[] = [];
  const substring: string[] = [];
  for (const c of candidates) {
    const l = c.toLowerCase();
    if (l.startsWith(v)) prefix.push(c);
    else if (l.includes(v)) substring.push(c);
  }
  const all = [...prefix, ...substring];
  return { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS };
}
