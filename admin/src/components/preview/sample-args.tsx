// Sample argument inputs for previews, typed like the arguments: numbers get number inputs,
// yes/no a select, choices a select; an argument's default is filled in until changed.
import { useId } from 'react';
import type { Argument } from '../../types';
import { argTypeOf, defaultText, valueProblem } from '../editor/arg-types';

type Arg = Pick<Argument, 'name' | 'required' | 'choices' | 'description' | 'type' | 'default'>;
interface Props {
  args: Arg[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}

export function SampleArgs({ args, values, onChange }: Props) {
  const id = useId();
  const named = args.filter((a) => a.name.trim() !== '');
  if (named.length === 0) return <p className="muted">No arguments.</p>;
  const shown = withDefaults(values, named);
  return (
    <fieldset className="sample-args">
      <legend>Sample arguments</legend>
      {named.map((a, i) => {
        const fid = `${id}-${i}`;
        const type = argTypeOf(a);
        const value = shown[a.name] ?? '';
        const set = (v: string) => onChange({ ...values, [a.name]: v });
        const problem = valueProblem(type, value);
        const hint = [a.description, a.default != null ? `default ${defaultText(a.default)}` : null].filter(Boolean).join(' · ');
        const common = {
          id: fid,
          'data-testid': `preview-arg-${a.name}`,
          'data-type': type,
          value,
          'aria-invalid': problem ? true : undefined,
          'aria-describedby': problem ? `${fid}-p` : hint ? `${fid}-h` : undefined,
        };
        const options = type === 'boolean' ? ['true', 'false'] : a.choices?.length ? a.choices : null;
        return (
          <div className="field" key={a.name + i}>
            <label htmlFor={fid}>
              {a.name}
              {type !== 'string' && <span className="muted small"> ({type})</span>}
              {a.required && <span aria-label="required"> *</span>}
            </label>
            {options ? (
              <select {...common} onChange={(e) => set(e.target.value)}>
                <option value="">(none)</option>
                {value && !options.includes(value) && <option value={value}>{value}</option>}
                {options.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : type === 'number' || type === 'integer' ? (
              <input {...common} type="number" step={type === 'integer' ? 1 : 'any'} inputMode={type === 'integer' ? 'numeric' : 'decimal'} onChange={(e) => set(e.target.value)} />
            ) : (
              <input {...common} placeholder={a.description ?? ''} onChange={(e) => set(e.target.value)} />
            )}
            {problem ? (
              <p className="field-warning small" id={`${fid}-p`}>{problem}</p>
            ) : (
              hint && <p className="hint" id={`${fid}-h`}>{hint}</p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

/** The values shown and sent: what the author typed, else the argument's default. */
export function withDefaults(values: Record<string, string>, args: Pick<Argument, 'name' | 'default'>[]): Record<string, string> {
  const out = { ...values };
  for (const a of args) if (out[a.name] === undefined && a.default != null) out[a.name] = defaultText(a.default);
  return out;
}

/** Drops empty values: an optional argument left blank is simply not sent. */
export function nonEmpty(values: Record<string, string>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (values[n]) out[n] = values[n]!;
  return out;
}
