// Sample argument inputs for previews.
import { useId } from 'react';
import type { Argument } from '../../types';

interface Props {
  args: Pick<Argument, 'name' | 'required' | 'choices' | 'description'>[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}

export function SampleArgs({ args, values, onChange }: Props) {
  const id = useId();
  const named = args.filter((a) => a.name.trim() !== '');
  if (named.length === 0) return <p className="muted">No arguments.</p>;
  return (
    <fieldset className="sample-args">
      <legend>Sample arguments</legend>
      {named.map((a, i) => {
        const fid = `${id}-${i}`;
        const set = (v: string) => onChange({ ...values, [a.name]: v });
        return (
          <div className="field" key={a.name + i}>
            <label htmlFor={fid}>
              {a.name}
              {a.required && <span aria-label="required"> *</span>}
            </label>
            {a.choices?.length ? (
              <select id={fid} data-testid={`preview-arg-${a.name}`} value={values[a.name] ?? ''} onChange={(e) => set(e.target.value)}>
                <option value="">(none)</option>
                {a.choices.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : (
              <input id={fid} data-testid={`preview-arg-${a.name}`} value={values[a.name] ?? ''} placeholder={a.description ?? ''} onChange={(e) => set(e.target.value)} />
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

/** Drops empty values: an optional argument left blank is simply not sent. */
export function nonEmpty(values: Record<string, string>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (values[n]) out[n] = values[n]!;
  return out;
}
