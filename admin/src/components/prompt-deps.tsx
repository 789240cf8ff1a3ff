// "Includes" (what the shown version includes, and what each include resolves to) and
// "Used by" (served prompts that include this one), as links.
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../api';
import { contractsApi, type Dependent, type IncludeInfo } from '../contracts-api';
import { href, Link } from '../router';
import '../contracts.css';

export function PromptDeps({ name, version, revision }: { name: string; version: number | null; revision: number | string }) {
  const [includes, setIncludes] = useState<IncludeInfo[] | null>(null);
  const [dependents, setDependents] = useState<Dependent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  useEffect(() => {
    let live = true;
    Promise.all([contractsApi.includes(name, version ?? undefined), contractsApi.dependents(name)]).then(
      ([inc, dep]) => {
        if (!live) return;
        setIncludes(inc.items);
        setDependents(dep.items);
        setError(null);
      },
      (err) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [name, version, revision]);

  return (
    <section className="card deps" aria-labelledby={`${id}-h`} data-testid="prompt-deps">
      <h2 id={`${id}-h`}>Includes and used by</h2>
      {error && <p className="field-warning">Could not load: {error}</p>}
      <div>
        <h3 id={`${id}-inc`}>Includes{version != null ? ` (v${version})` : ''}</h3>
        {includes === null ? (
          !error && <p className="muted small">Loading…</p>
        ) : includes.length === 0 ? (
          <p className="muted small" data-testid="includes-none">Includes no other prompt.</p>
        ) : (
          <ul className="link-list" aria-labelledby={`${id}-inc`} data-testid="prompt-includes">
            {includes.map((i) => (
              <li key={i.include} data-testid="include-link" data-prompt={i.prompt}>
                <Link href={i.resolvedVersion ? `${href.prompt(i.prompt)}?version=${i.resolvedVersion}` : href.prompt(i.prompt)}>{i.include}</Link>
                <span className="muted small"> {i.resolvedVersion ? `→ v${i.resolvedVersion}` : ''}</span>
                {i.problem && <span className="field-warning small"> {i.problem}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 id={`${id}-dep`}>Used by</h3>
        {dependents === null ? (
          !error && <p className="muted small">Loading…</p>
        ) : dependents.length === 0 ? (
          <p className="muted small" data-testid="dependents-none">No served prompt includes {name}.</p>
        ) : (
          <ul className="link-list" aria-labelledby={`${id}-dep`} data-testid="prompt-dependents">
            {dependents.map((d) => (
              <li key={`${d.prompt}@${d.version}`} data-testid="dependent-link" data-prompt={d.prompt}>
                <Link href={`${href.prompt(d.prompt)}?version=${d.version}`}>{d.prompt} v{d.version}</Link>
                <span className="muted small"> ({d.views.join(', ')}; as {d.includes.join(', ')})</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
