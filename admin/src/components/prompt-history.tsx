// The prompt page's history panel: this prompt's change log, filterable by what.
import { useId, useState } from 'react';
import { ACTION_GROUPS } from '../activity-api';
import { href, Link } from '../router';
import { ActivityList } from './activity-list';

const PROMPT_GROUPS = ACTION_GROUPS.filter((g) => ['prompt.*', 'version.*', 'label.*', 'labels.*'].includes(g.value));

export function PromptHistory({ name }: { name: string }) {
  const id = useId();
  const [action, setAction] = useState('');
  return (
    <section aria-labelledby={`${id}-h`} className="card" data-testid="prompt-history">
      <div className="wh-deliveries-head">
        <h2 id={`${id}-h`}>History</h2>
        <Link href={href.activity(new URLSearchParams({ prompt: name }).toString())}>Open in Activity</Link>
      </div>
      <div className="field">
        <label htmlFor={`${id}-what`}>Show</label>
        <select id={`${id}-what`} data-testid="history-action" value={action} onChange={(e) => setAction(e.target.value)}>
          <option value="">Everything</option>
          {PROMPT_GROUPS.map((g) => (
            <optgroup key={g.value} label={g.label}>
              {g.actions.map((a) => <option key={a} value={a}>{a}</option>)}
            </optgroup>
          ))}
        </select>
      </div>
      <ActivityList filters={{ prompt: name, action: action || undefined }} caption={`History of ${name}, newest first`} showTarget={false} pageSize={20} />
      <p className="hint">Events before a rename are listed under the old name.</p>
    </section>
  );
}
