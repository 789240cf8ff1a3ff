// Resource visibility (SECURITY.md, resource visibility): public resources are listed and
// readable by MCP clients; bound ones only reach clients embedded through a served prompt.
import { useId } from 'react';
import type { Resource } from '../types';
import { Badge, FieldError, type Messages } from './bits';
import '../labels.css';

export type Visibility = Resource['visibility'];

const HELP: Record<Visibility, string> = {
  bound: 'Only reachable embedded in a served prompt that binds it; hidden from resources/list and resources/read.',
  public: 'Listed by resources/list and readable by any MCP client with resources/read.',
};

export function VisibilityField({ value, set, errors, testId }: { value: Visibility; set: (v: Visibility) => void; errors: Messages; testId: string }) {
  const id = useId();
  return (
    <fieldset className="field" data-testid={testId} aria-describedby={`${id}-help${errors.visibility ? ' note-visibility' : ''}`}>
      <legend>Visibility</legend>
      <div className="row-gap">
        {(['bound', 'public'] as const).map((v) => (
          <label key={v} className="radio">
            <input type="radio" name={`${id}-vis`} value={v} checked={value === v} data-testid={`${testId}-${v}`} onChange={() => set(v)} /> {v === 'bound' ? 'Bound (default)' : 'Public'}
          </label>
        ))}
      </div>
      <p className="hint" id={`${id}-help`} data-testid={`${testId}-help`}>
        {HELP[value]}
      </p>
      <FieldError path="visibility" errors={errors} />
    </fieldset>
  );
}

export function VisibilityBadge({ value }: { value: Visibility }) {
  return (
    <span data-testid="resource-visibility" data-visibility={value} title={HELP[value]}>
      <Badge kind={value === 'public' ? 'info' : 'muted'}>{value}</Badge>
    </span>
  );
}
