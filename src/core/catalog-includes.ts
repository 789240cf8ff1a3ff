// Includes in the served catalog (docs/contracts.md#includes). Rendering resolves
// includes live from the views, so a prompt that includes another needs no stored
// copy to recompile: what changes when an included prompt's served version changes is
// that the includer's sessions must hear `list_changed`, exactly as if it had changed.
//
// At 100k prompts the catalog holds documents as JSON text and parses them on use.
// The reverse index stays within that: only documents that can include anything
// (the substring `{{>` or an include message) are parsed, once, when first held, and
// the index maps an included name to the versions including it — memory grows with
// the number of includes, not of prompts.
import type { ChangeEvent, Message, Version } from './types.js';
import { MAX_INCLUDE_DEPTH, parseIncludeRef, type IncludeRef } from './include-ref.js';
import { analyzeTemplate } from './template.js';
import { PRODUCTION } from './schemas.js';

/** A view's name → version id lookup (catalog-names.ts). */
interface NameLookup {
  get(name: string): number | undefined;
  has(name: string): boolean;
}

/** Every include of a version: `{{> ref}}` in its text templates and its include messages. */
export function includeRefsOf(messages: readonly Message[]): IncludeRef[] {
  const out: IncludeRef[] = [];
  for (const m of messages) {
    const c = m.content;
    if (c.type === 'text') {
      if (!c.text.includes('{{>')) continue;
      for (const raw of analyzeTemplate(c.text).includes) {
        const r = parseIncludeRef(raw);
        if (r) out.push(r);
      }
    } else if (c.type === 'include') {
      out.push({ prompt: c.prompt, ...(c.label !== undefined ? { label: c.label } : {}), ...(c.version !== undefined ? { version: c.version } : {}) });
    }
  }
  return out;
}

// One pass over the JSON text: a text include or an include message's type.
const MAY_INCLUDE = /\{\{>|"include"/;

/** Includes of a stored document, without parsing the (vast majority of) documents that have none. */
export function refsOfDoc(doc: string, decode: (doc: string) => Version): IncludeRef[] | undefined {
  if (!MAY_INCLUDE.test(doc)) return undefined;
  const refs = includeRefsOf(decode(doc).messages);
  return refs.length ? refs : undefined;
}

/** included prompt name → version id → that version's includes of it */
export class IncludeIndex {
  private readonly byIncluded = new Map<string, Map<number, IncludeRef[]>>();

  get size(): number {
    return this.byIncluded.size;
  }

  add(versionId: number, refs: readonly IncludeRef[]): void {
    for (const r of refs) {
      let m = this.byIncluded.get(r.prompt);
      if (!m) this.byIncluded.set(r.prompt, (m = new Map()));
      const list = m.get(versionId);
      if (list) list.push(r);
      else m.set(versionId, [r]);
    }
  }

  remove(versionId: number, refs: readonly IncludeRef[]): void {
    for (const r of refs) {
      const m = this.byIncluded.get(r.prompt);
      if (!m) continue;
      m.delete(versionId);
      if (!m.size) this.byIncluded.delete(r.prompt);
    }
  }

  including(name: string): ReadonlyMap<number, IncludeRef[]> | undefined {
    return this.byIncluded.get(name);
  }
}

/** Which views an event changed: its labels, or 'all' (rename, archive, delete). */
export type Scope = readonly string[] | 'all';

/** Whether an include `r` of `name`, in a version served by `view`, resolves differently after a change in `scope`. */
export function affects(r: IncludeRef, scope: Scope, view: { label: string; byName: NameLookup }, name: string): boolean {
  if (scope === 'all') return true;
  if (r.version !== undefined) return false; // versions never change; only a rename, archive or delete moves them
  if (r.label !== undefined) return scope.includes(r.label);
  return scope.includes(view.label) || (scope.includes(PRODUCTION) && !view.byName.has(name));
}

export interface ViewLike {
  label: string;
  byName: NameLookup;
}

/**
 * The prompts `view` serves whose rendering a change to `seeds` alters: those including
 * a changed prompt, then those including them, down to the depth limit.
 */
export function dependentsIn(view: ViewLike, seeds: { name: string; scope: Scope }[], index: IncludeIndex, nameOf: (versionId: number) => string | undefined): Set<string> {
  const hit = new Set<string>();
  let frontier = seeds;
  for (let depth = 0; depth < MAX_INCLUDE_DEPTH && frontier.length; depth++) {
    const next: { name: string; scope: Scope }[] = [];
    for (const { name, scope } of frontier) {
      const including = index.including(name);
      if (!including) continue;
      for (const [versionId, refs] of including) {
        const includer = nameOf(versionId);
        if (includer === undefined || hit.has(includer) || view.byName.get(includer) !== versionId) continue;
        if (!refs.some((r) => affects(r, scope, view, name))) continue;
        hit.add(includer);
        next.push({ name: includer, scope: [view.label] });
      }
    }
    frontier = next;
  }
  return hit;
}

/** The names and scopes of served events, for dependentsIn. */
export function seedsOf(events: readonly ChangeEvent[], viewsOf: (e: ChangeEvent) => Scope | undefined): { name: string; scope: Scope }[] {
  const out: { name: string; scope: Scope }[] = [];
  for (const e of events) {
    const scope = viewsOf(e);
    if (!scope) continue;
    out.push({ name: e.entityKey, scope });
    if (e.action === 'prompt.renamed' && typeof e.details?.from === 'string') out.push({ name: e.details.from, scope });
  }
  return out;
}
