// Resource binding picker: stored resources and resource templates, or a typed URI / URI template.
import { useId } from 'react';
import { isUriTemplate, uriTemplateVars } from '../../lib/template-vars';
import type { Resource, ResourceTemplate } from '../../types';
import { formatBytes } from '../bits';

interface Props {
  id: string;
  kind: 'resource' | 'resource_link' | 'image' | 'audio';
  value: string;
  onChange: (uri: string) => void;
  resources: Resource[];
  templates: ResourceTemplate[];
  declared: Set<string>;
  onDeclare: (name: string) => void;
  index: number;
  describedBy?: { 'aria-invalid'?: boolean; 'aria-describedby'?: string; 'data-path'?: string };
}

export function ResourcePicker({ id, kind, value, onChange, resources, templates, declared, onDeclare, index, describedBy }: Props) {
  const listId = useId();
  const media = kind === 'image' || kind === 'audio';
  const stored = media ? resources.filter((r) => r.binary && r.mimeType.startsWith(`${kind}/`)) : resources;
  const tpls = media ? [] : templates;
  const match = resources.find((r) => r.uri === value.trim());
  const tplMatch = templates.find((t) => t.uriTemplate === value.trim());
  const vars = isUriTemplate(value) ? uriTemplateVars(value) : [];
  return (
    <div className="picker">
      <div className="picker-row">
        <div className="field grow">
          <label htmlFor={id}>{media ? `Stored ${kind} URI` : kind === 'resource' ? 'Bound resource (URI or URI template)' : 'Linked URI'}</label>
          <input
            id={id}
            className="mono"
            list={listId}
            data-testid={`msg-uri-${index}`}
            placeholder={media ? 'file://images/diagram.png' : 'docs://style-guide or logs://recent?timeframe={timeframe}'}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            {...describedBy}
          />
          <datalist id={listId}>
            {stored.map((r) => (
              <option key={`r${r.id}`} value={r.uri}>{r.name}</option>
            ))}
            {tpls.map((t) => (
              <option key={`t${t.id}`} value={t.uriTemplate}>{t.name}</option>
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor={`${id}-pick`}>Or pick</label>
          <select id={`${id}-pick`} data-testid={`msg-resource-pick-${index}`} value="" onChange={(e) => e.target.value && onChange(e.target.value)}>
            <option value="">{stored.length + tpls.length ? 'Choose…' : 'Library is empty'}</option>
            {stored.length > 0 && (
              <optgroup label="Stored resources">
                {stored.map((r) => (
                  <option key={`r${r.id}`} value={r.uri}>
                    {r.name} — {r.uri}
                  </option>
                ))}
              </optgroup>
            )}
            {tpls.length > 0 && (
              <optgroup label="Resource templates">
                {tpls.map((t) => (
                  <option key={`t${t.id}`} value={t.uriTemplate}>
                    {t.name} — {t.uriTemplate}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </div>
      </div>
      <p className="picker-status small" data-testid={`msg-resource-status-${index}`}>
        {match && (
          <span className="ok">
            Stored resource <strong>{match.name}</strong> ({match.mimeType}, {formatBytes(match.size)})
          </span>
        )}
        {!match && tplMatch && (
          <span className="ok">
            Resource template <strong>{tplMatch.name}</strong> ({tplMatch.mimeType})
          </span>
        )}
        {!match && !tplMatch && value.trim() && !vars.length && kind !== 'resource_link' && (
          <span className="muted">Not in the library: the server checks it when you save.</span>
        )}
        {!media && !value && <span className="muted">Tip: <code>{'{+fileUri}'}</code> lets an argument hold a whole URI.</span>}
      </p>
      {vars.length > 0 && (
        <ul className="chips" aria-label="URI template variables">
          {vars.map((n) => (
            <li key={n} className={declared.has(n) ? 'chip chip-ok' : 'chip chip-bad'}>
              <code>{`{${n}}`}</code>
              {!declared.has(n) && (
                <>
                  <span> undeclared</span>
                  <button type="button" className="btn-link" onClick={() => onDeclare(n)}>
                    Add argument
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
