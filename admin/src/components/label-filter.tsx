// The prompt list's label filter: a select of the labels in use (GET /labels).
import { useEffect, useId, useState } from 'react';
import { api } from '../api';

export function LabelFilter({ value, onChange }: { value: string; onChange: (label: string) => void }) {
  const id = useId();
  const [labels, setLabels] = useState<string[]>([]);
  useEffect(() => {
    api.listLabels().then((r) => setLabels(r.items.map((i) => i.label)), () => {});
  }, []);
  // A label from the URL that no prompt carries (yet) stays selectable.
  const options = value && !labels.includes(value) ? [...labels, value] : labels;
  return (
    <div className="field">
      <label htmlFor={id}>Label</label>
      <select id={id} value={value} data-testid="prompt-label-filter" onChange={(e) => onChange(e.target.value)}>
        <option value="">Any label</option>
        {options.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </div>
  );
}
