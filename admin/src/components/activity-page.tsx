// The global activity log: who changed what, filterable by who, what and prompt; the
// filters live in the URL so a filtered view can be linked.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ACTION_GROUPS, type ActivityFilters } from '../activity-api';
import { tokensApi } from '../tokens-api';
import { href, navigate } from '../router';
import { ActivityList } from './activity-list';
import { useCan } from '../me';

// Token and webhook events are the admin's (docs/access.md): the API refuses them to other roles.
const ADMIN_ONLY_GROUPS = ['token.*', 'webhook.*'];

const BUILT_IN_ACTORS = ['admin', 'cli', 'import', 'serve'];

export function ActivityPage({ search }: { search: URLSearchParams }) {
  const id = useId();
  const isAdmin = useCan('admin');
  const groups = ACTION_GROUPS.filter((g) => isAdmin || !ADMIN_ONLY_GROUPS.includes(g.value));
  const filters: ActivityFilters = {
    actor: search.get('actor') ?? undefined,
    action: search.get('action') ?? undefined,
    prompt: search.get('prompt') ?? undefined,
  };
  const [form, setForm] = useState({ actor: filters.actor ?? '', action: filters.action ?? '', prompt: filters.prompt ?? '' });
  const [actors, setActors] = useState<string[]>(BUILT_IN_ACTORS);
  useEffect(() => {
    document.title = 'Activity · promptd';
    tokensApi.list().then((ts) => setActors([...ts.map((t) => `token:${t.name}#${t.id}`), ...BUILT_IN_ACTORS]), () => {});
  }, []);
  useEffect(() => setForm({ actor: filters.actor ?? '', action: filters.action ?? '', prompt: filters.prompt ?? '' }), [search.toString()]); // eslint-disable-line react-hooks/exhaustive-deps

  const apply = (f: typeof form) => {
    const q = new URLSearchParams(Object.entries(f).filter(([, x]) => x.trim()).map(([k, x]) => [k, x.trim()]));
    navigate(href.activity(q.toString()), { replace: true });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(form);
  };

  return (
    <section className="page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>Activity</h1>
      <p className="muted">Every change, newest first: versions, activations and rollbacks, label moves, archives, renames, deletes, resources, tokens and webhooks.</p>
      <form className="card filters" role="search" aria-label="Filter activity" onSubmit={submit} data-testid="activity-filters">
        <div className="field">
          <label htmlFor={`${id}-who`}>Who</label>
          <input id={`${id}-who`} list={`${id}-actors`} data-testid="activity-actor" placeholder="anyone" value={form.actor} onChange={(e) => setForm({ ...form, actor: e.target.value })} />
          <datalist id={`${id}-actors`}>
            {actors.map((a) => <option key={a} value={a} />)}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor={`${id}-what`}>What</label>
          <select id={`${id}-what`} data-testid="activity-action" value={form.action} onChange={(e) => apply({ ...form, action: e.target.value })}>
            <option value="">Everything</option>
            {groups.map((g) => (
              <optgroup key={g.value} label={g.label}>
                <option value={g.value}>All {g.label.toLowerCase()}</option>
                {g.actions.map((a) => <option key={a} value={a}>{a}</option>)}
              </optgroup>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-prompt`}>Prompt</label>
          <input id={`${id}-prompt`} className="mono" data-testid="activity-prompt" placeholder="any" value={form.prompt} onChange={(e) => setForm({ ...form, prompt: e.target.value })} />
        </div>
        <div className="filters-actions">
          <button type="submit" className="btn btn-primary btn-small" data-testid="activity-apply">Filter</button>
          <button type="button" className="btn btn-small" onClick={() => apply({ actor: '', action: '', prompt: '' })}>Clear</button>
        </div>
      </form>
      <section className="card" aria-labelledby={`${id}-log`}>
        <h2 id={`${id}-log`}>Log</h2>
        <ActivityList filters={filters} caption="Activity, newest first" />
      </section>
    </section>
  );
}
