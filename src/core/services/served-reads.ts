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
import type { McpScope } from '../mcp-scope.js';

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

  async function definition(name: string, sel: VersionSelector): Promise<ServedDefinition> {
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

  return {
    definition,

    /**
     * `onResolved`: told which version is being rendered before rendering (usage counts it
     * even if rendering fails). `scope`: a caller limited to some tags gets includes of
     * prompts outside them refused (docs/access.md); whether it may read `name` itself is
     * the caller's check.
     */
    async render(name: string, sel: VersionSelector, args: Record<string, ArgumentValue>, onResolved?: (d: ServedDefinition) => void, scope?: Pick<McpScope, 'tags'> | null): Promise<ServedDefinition & { rendered: RenderedPrompt }> {
      const d = await definition(name, sel);
      onResolved?.(d);
      return { ...d, rendered: await renderVersion(name, d.version, args, resolver, catalog.includes(d.label ?? PRODUCTION, scope)) };
    },

    /**
     * Entries after `since` that affect readers, oldest first. `next` is the `since`
     * of the following page: past the last row looked at, so filtered-out rows are
     * never read twice. `more`: call again at once.
     */
    async changes(since: number, limit: number): Promise<{ items: ServedChange[]; next: number; more: boolean }> {
      const items: ServedChange[] = [];
      let next = since;
      for (let scanned = 0; scanned < SCAN_MAX; ) {
        const batch = await read.events.after(next, SCAN_BATCH);
        for (const e of batch) {
          if (affectsServed(e)) items.push(describeChange(e));
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

    /** The newest change log id, for a reader starting to follow now. */
    lastId: () => read.events.lastId(),
  };
}

export type ServedReads = ReturnType<typeof createServedReads>;
