// Prompt icons (MCP `icons`: src, optional MIME type and sizes), shown to clients next to the prompt.
import { useId, useState } from 'react';
import { describe, FieldError, type Messages } from '../bits';
import { emptyIcon, type IconRow } from './form-model';

interface Props {
  icons: IconRow[];
  onChange: (icons: IconRow[]) => void;
  errors: Messages;
  warnings: Messages;
}

/** Only https: and data:image URLs are previewed (no plain-http fetches from the admin page). */
function Thumb({ src }: { src: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const ok = /^(https:\/\/|data:image\/)/i.test(src.trim());
  if (!ok || failed === src) return <span className="icon-thumb icon-thumb-empty" aria-hidden="true" />;
  return <img className="icon-thumb" src={src.trim()} alt="" referrerPolicy="no-referrer" onError={() => setFailed(src)} />;
}

export function IconsEditor({ icons, onChange, errors, warnings }: Props) {
  const id = useId();
  const set = (i: number, patch: Partial<IconRow>) => onChange(icons.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <fieldset className="icons" data-testid="icons-editor">
      <legend>Icons</legend>
      <FieldError path="icons" errors={errors} />
      {icons.length === 0 && <p className="muted small">No icons. MCP clients that show prompt icons use the first size that fits.</p>}
      <ol className="icon-list">
        {icons.map((ic, i) => {
          const p = `icons[${i}]`;
          const f = (k: string) => `${id}-${i}-${k}`;
          return (
            <li key={ic.key} className="icon-row" data-testid="icon-row">
              <Thumb src={ic.src} />
              <div className="field grow">
                <label htmlFor={f('src')}>Icon {i + 1} URL</label>
                <input id={f('src')} className="mono" data-testid={`icon-src-${i}`} placeholder="https://… or data:image/png;base64,…" value={ic.src} onChange={(e) => set(i, { src: e.target.value })} {...describe(`${p}.src`, errors, warnings)} />
                <FieldError path={`${p}.src`} errors={errors} warnings={warnings} />
              </div>
              <div className="field icon-mime">
                <label htmlFor={f('mime')}>MIME type</label>
                <input id={f('mime')} className="mono" data-testid={`icon-mime-${i}`} placeholder="image/png" value={ic.mimeType} onChange={(e) => set(i, { mimeType: e.target.value })} {...describe(`${p}.mimeType`, errors)} />
                <FieldError path={`${p}.mimeType`} errors={errors} />
              </div>
              <div className="field icon-sizes">
                <label htmlFor={f('sizes')}>Sizes</label>
                <input id={f('sizes')} className="mono" data-testid={`icon-sizes-${i}`} placeholder="48x48 96x96" value={ic.sizes} onChange={(e) => set(i, { sizes: e.target.value })} {...describe(`${p}.sizes`, errors, warnings)} />
                <FieldError path={`${p}.sizes`} errors={errors} warnings={warnings} prefix />
              </div>
              <button type="button" className="btn btn-small btn-ghost" data-testid={`icon-remove-${i}`} aria-label={`Remove icon ${i + 1}`} onClick={() => onChange(icons.filter((_, j) => j !== i))}>
                Remove
              </button>
              <FieldError path={p} errors={errors} />
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-small" data-testid="icon-add" onClick={() => onChange([...icons, emptyIcon()])}>
        Add icon
      </button>
    </fieldset>
  );
}
