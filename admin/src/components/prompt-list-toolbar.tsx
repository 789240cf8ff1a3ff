// The prompt list's search, filters and sort; the list keeps them in the URL.
import { useId } from 'react';
import type { ArchivedFilter, PromptSort, PromptStatus } from '../api';
import { LabelFilter } from './label-filter';

export interface ListFilters { q: string; archived: ArchivedFilter; label: string; tag: string; status: PromptStatus | ''; sort: PromptSort }

export const DEFAULT_FILTERS: ListFilters = { q: '', archived: 'false', label: '', tag: '', status: '', sort: 'name' };

export function filtersFrom(search: URLSearchParams): ListFilters {
  const pick = <T extends string>(k: string, allowed: readonly T[], fallback: T): T => (allowed as readonly string[]).includes(search.get(k) ?? '') ? (search.get(k) as T) : fallback;
  return {
    q: search.get('q') ?? '',
    archived: pick<ArchivedFilter>('archived', ['false', 'true', 'all'], 'false'),
    label: search.get('label') ?? '',
    tag: search.get('tag') ?? '',
    status: pick<PromptStatus | ''>('status', ['pending', 'inactive', 'archived'], ''),
    sort: pick<PromptSort>('sort', ['name', 'updated', 'lastUsed'], 'name'),
  };
}

/** Only what differs from the defaults, for the URL. */
export function filtersToSearch(f: ListFilters): URLSearchParams {
  const sp = new URLSearchParams();
  for (const k of Object.keys(DEFAULT_FILTERS) as (keyof ListFilters)[]) if (f[k] && f[k] !== DEFAULT_FILTERS[k]) sp.set(k, f[k]);
  return sp;
}

export function PromptListToolbar({ value: f, onChange }: { value: ListFilters; onChange: (f: ListFilters) => void }) {
  const id = useId();
  const set = <K extends keyof ListFilters>(k: K, v: ListFilters[K]) => onChange({ ...f, [k]: v });
  return (
    <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
      <div className="field grow">
        <label htmlFor={`${id}-q`}>Search prompts</label>
        <input id={`${id}-q`} type="search" placeholder="Name, title, description or text" value={f.q} data-testid="prompt-search" onChange={(e) => set('q', e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-a`}>Show</label>
        <select id={`${id}-a`} value={f.archived} data-testid="prompt-archived-filter" onChange={(e) => set('archived', e.target.value as ArchivedFilter)}>
          <option value="false">Not archived</option>
          <option value="true">Archived only</option>
          <option value="all">All prompts</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-s`}>Status</label>
        <select id={`${id}-s`} value={f.status} data-testid="prompt-status-filter" onChange={(e) => set('status', e.target.value as PromptStatus | '')}>
          <option value="">Any status</option>
          <option value="pending" title="the latest version is newer than production">Draft pending</option>
          <option value="inactive" title="no production label">Inactive</option>
          <option value="archived">Archived</option>
        </select>
      </div>
      <LabelFilter value={f.label} onChange={(label) => set('label', label)} />
      <div className="field">
        <label htmlFor={`${id}-t`}>Tag</label>
        <input id={`${id}-t`} type="search" placeholder="team-a" value={f.tag} data-testid="prompt-tag-filter" onChange={(e) => set('tag', e.target.value.trim().toLowerCase())} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-o`}>Sort by</label>
        <select id={`${id}-o`} value={f.sort} data-testid="prompt-sort" onChange={(e) => set('sort', e.target.value as PromptSort)}>
          <option value="name">Name</option>
          <option value="updated">Recently edited</option>
          <option value="lastUsed">Recently used</option>
        </select>
      </div>
    </form>
  );
}
