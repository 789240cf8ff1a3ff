// The read API's use cases (GET /v1/…): a served prompt's definition by label or
// pinned version, its rendering, and the change log entries that move what is served
// or rendered. Labels resolve through the served catalog, exactly as MCP sees them;
// a pinned version is read from the store (any version of a live, unarchived prompt).
import type { ServedCatalog } from '../catalog.js';
import type { ChangeFeed, ChangeListener } from '../change-feed.js';
import { DomainError, type FieldError } from '../errors.js';
import { renderVersion, type ResourceResolver } from '../render.js';
import type { ArgumentValue } from '../arguments.js';
import type { Repositories } from '../ports.js';
import { PRODUCTION } from '../schemas.js';
import type { ChangeEvent, RenderedPrompt, Version } from '../types.js';
import { tagsInScope, type McpScope } from '../mcp-scope.js';
import type { CatalogView } from '../catalog.js';

/** Which version to serve: a label's (default `production`, `latest` allowed) or a pinned number. */
export interface VersionSelector {
  label?: string;
  version?: number;
}

export interface ServedDefinition {
  name: string;
  /** the label it was resolved through; null for a pinned version */
  label: string | null;
  version: Version;
}

/** A change log entry as the read API shows it: what moved, never who or the stored details. */
export interface ServedChange {
  id: number;
  at: Date;
  action: string;
  kind: 'prompt' | 'resource' | 'resource_template';
  /** the prompt's name now (null for resource changes: re-validate cached renders) */
  prompt: string | null;
  /** its name before a rename */
  previousName: string | null;
  /** the label views that changed; null when every view of the prompt may have (rename, archive…) */
  labels: string[] | null;
  /** the version a label now points at or that was created; null when a label was removed or for other changes */
  version: number | null;
}

const notFound = (message: string, errors: FieldError[]) => new DomainError('not_found', message, errors);

/**
 * An app token's scope on the read API (issue 36.12): its label only (another label, or a
 * pinned version, which is outside every label, is a 403 saying so), and with tags only
 * the prompts carrying one of them (any other is "not found", as a missing one is).
 */
function scopedLabel(sel: VersionSelector, scope: McpScope): string {
  if (sel.version !== undefined) {
    throw new DomainError('forbidden', `this token reads label "${scope.label}" only: a pinned version (version=) is not served to it`, [{ path: 'version', message: `this token reads label "${scope.label}" only` }]);
  }
  if (sel.label !== undefined && sel.label !== scope.label) {
    throw new DomainError('forbidden', `this token reads label "${scope.label}" only, not "${sel.label}"; drop label= or ask for that one`, [{ path: 'label', message: `this token reads label "${scope.label}" only` }]);
  }
  return scope.label;
}

/** Whether a change concerns what a scope may read: resource changes always (renders embed them), prompt changes of its label and tags. */
function changeInScope(e: ChangeEvent, scope: McpScope, view: CatalogView | undefined): boolean {
  if (e.entity !== 'prompt') return true;
  const labels = describeChange(e).labels;
  if (labels && !labels.includes(scope.label)) return false;
  if (!scope.tags) return true;
  // The prompt's tags as its label serves them now: a prompt that left the view is not announced.
  const tags = view?.tagsOf(e.entityKey);
  return tags !== undefined && tagsInScope(scope, tags);
}

/**
 * Whether an event changes a definition or a rendering the read API serves: served
 * prompt changes, and every resource or resource template change (renders embed them).
 * Token and webhook events never reach readers.
 */
export function affectsServed(e: ChangeEvent): boolean {
  return (e.entity === 'prompt' && e.served) || e.entity === 'resource' || e.entity === 'resource_template';
}

/** The reader's view of an event: resource keys are left out, since a bound resource's URI is not public. */
export function describeChange(e: ChangeEvent): ServedChange {
  const d = e.details ?? {};
  const isPrompt = e.entity === 'prompt';
  const labels = Array.isArray(d.labels) ? d.labels.filter((l): l is string => typeof l === 'string') : typeof d.label === 'string' ? [d.label] : null;
  // Label moves carry {label, from, to}; new versions {version}.
  const version = 'to' in d ? (typeof d.to === 'number' ? d.to : null) : typeof d.version === 'number' ? d.version : null;
  return {
    id: e.id,
    at: e.at,
    action: e.action,
    kind: e.entity as ServedChange['kind'],
    prompt: isPrompt ? e.entityKey : null,
    previousName: isPrompt && e.action === 'prompt.renamed' && typeof d.from === 'string' ? d.from : null,
    labels: isPrompt ? labels : null,
    version: isPrompt ? version : null,
  };
}

/** How many change log rows one page may look through for entries that affect readers. */
const SCAN_MAX = 5_000;
const SCAN_BATCH = 500;

export function createServedReads({ read, catalog, resolver, feed }: { read: Repositories; catalog: ServedCatalog; resolver: ResourceResolver; feed: ChangeFeed }) {
  async function whyMissing(name: string, label: string): Promise<never> {
    const head = await read.prompts.head(name);
    if (!head) throw notFound(`prompt "${name}" not found`, [{ path: 'name', message: 'no such prompt' }]);
    if (head.archived) throw notFound(`prompt "${name}" is archived and not served`, [{ path: 'name', message: 'archived' }]);
    throw notFound(`prompt "${name}" has no label "${label}"`, [{ path: 'label', message: `prompt "${name}" does not carry it` }]);
  }

  async function definition(name: string, sel: VersionSelector, scope?: McpScope | null): Promise<ServedDefinition> {
    if (scope) {
      const label = scopedLabel(sel, scope);
      const view = await catalog.open(label).catch(() => undefined);
      const p = view?.find(name);
      // Out of scope reads as absent, with the same words for every such prompt.
      if (!p || !tagsInScope(scope, p.tags)) throw notFound(`prompt "${name}" not found under label "${label}" for this token`, [{ path: 'name', message: 'no such prompt in this token\'s scope' }]);
      return { name, label, version: p.version };
    }
    if (sel.version !== undefined) {
      if (sel.label !== undefined) {
        throw new DomainError('bad_request', 'give either label or version, not both', [{ path: 'version', message: 'cannot be combined with label' }]);
      }
      const head = await read.prompts.head(name);
      if (!head) throw notFound(`prompt "${name}" not found`, [{ path: 'name', message: 'no such prompt' }]);
      if (head.archived) throw notFound(`prompt "${name}" is archived and not served`, [{ path: 'name', message: 'archived' }]);
      const v = await read.prompts.version(name, sel.version);
      if (!v) throw notFound(`version ${sel.version} of prompt "${name}" not found (it has ${head.latestVersion})`, [{ path: 'version', message: 'no such version' }]);
      return { name, label: null, version: v };
    }
    const label = sel.label ?? PRODUCTION;
    const view = await catalog.open(label);
    const p = view.find(name);
    if (!p) return whyMissing(name, label);
    return { name, label, version: p.version };
  }

  async function changeFilter(scope?: McpScope | null): Promise<(e: ChangeEvent) => boolean> {
    if (!scope) return affectsServed;
    // A label no prompt carries yet has no view: only resource changes pass until it has one.
    const view = await catalog.open(scope.label).catch(() => undefined);
    return (e) => affectsServed(e) && changeInScope(e, scope, view);
  }

  return {
    definition,

    /**
     * `onResolved`: told which version is being rendered before rendering (usage counts it
     * even if rendering fails). `scope`: a caller limited to some tags gets includes of
     * prompts outside them refused (docs/access.md); whether it may read `name` itself is
     * the caller's check.
     */
    async render(name: string, sel: VersionSelector, args: Record<string, ArgumentValue>, onResolved?: (d: ServedDefinition) => void, scope?: McpScope | null): Promise<ServedDefinition & { rendered: RenderedPrompt }> {
      const d = await definition(name, sel, scope);
      onResolved?.(d);
      return { ...d, rendered: await renderVersion(name, d.version, args, resolver, catalog.includes(d.label ?? PRODUCTION, scope)) };
    },

    /**
     * Entries after `since` that affect readers, oldest first. `next` is the `since`
     * of the following page: past the last row looked at, so filtered-out rows are
     * never read twice. `more`: call again at once.
     */
    async changes(since: number, limit: number, scope?: McpScope | null): Promise<{ items: ServedChange[]; next: number; more: boolean }> {
      const affects = await changeFilter(scope);
      const items: ServedChange[] = [];
      let next = since;
      for (let scanned = 0; scanned < SCAN_MAX; ) {
        const batch = await read.events.after(next, SCAN_BATCH);
        for (const e of batch) {
          if (affects(e)) items.push(describeChange(e));
          next = e.id;
          if (items.length === limit) return { items, next, more: true };
        }
        scanned += batch.length;
        if (batch.length < SCAN_BATCH) return { items, next, more: false };
      }
      return { items, next, more: true };
    },

    /**
     * Subscribes to the change log behind the served catalog: a reader told of a
     * change and refetching at once gets what changed, never the view from before.
     */
    subscribe(fn: ChangeListener): () => void {
      catalog.follow();
      return feed.subscribe(fn);
    },

    /** Which change log entries a reader with this scope hears of (affectsServed, narrowed to the scope). */
    changeFilter,

    /** The newest change log id, for a reader starting to follow now. */
    lastId: () => read.events.lastId(),
  };
}

export type ServedReads = ReturnType<typeof createServedReads>;
