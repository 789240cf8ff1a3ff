// Prompt tags (docs/access.md): chips on the list and the prompt page, and an editor
// for them on the prompt page (editors and admins).
import { useId, useState, type FormEvent } from 'react';
import { api, errorMessage } from '../api';
import '../labels.css';

export const TAG_RE = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const MAX_TAGS = 20;

export function TagChips({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <span className="chips" role="group" aria-label="Tags">
      {tags.map((t) => (
        <span key={t} className="chip chip-tag" data-testid="tag-chip" data-tag={t}>
          #{t}
        </span>
      ))}
    </span>
  );
}

/** Parses "team-a, support" into tags; an error message names what is wrong. */
export function parseTags(text: string): { tags: string[] } | { error: string } {
  const tags = [...new Set(text.split(/[\s,]+/).filter(Boolean))].sort();
  const bad = tags.find((t) => !TAG_RE.test(t));
  if (bad) return { error: `"${bad}" is not a tag: 1 to 32 lowercase letters, digits and "-", starting with a letter or digit.` };
  if (tags.length > MAX_TAGS) return { error: `A prompt carries at most ${MAX_TAGS} tags.` };
  return { tags };
}

export function TagEditor({ name, tags, onSaved }: { name: string; tags: readonly string[]; onSaved: () => void }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(tags.join(', '));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!editing) {
    return (
      <button type="button" className="btn btn-small" data-testid="tags-edit" onClick={() => { setText(tags.join(', ')); setEditing(true); }}>
        Edit tags
      </button>
    );
  }
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseTags(text);
    if ('error' in parsed) return setError(parsed.error);
    setBusy(true);
    try {
      await api.setTags(name, parsed.tags);
      setEditing(false);
      setError(null);
      onSaved();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form" onSubmit={save} data-testid="tags-form">
      <label htmlFor={`${id}-tags`}>Tags</label>
      <input id={`${id}-tags`} data-testid="tags-input" value={text} onChange={(e) => setText(e.target.value)} placeholder="team-a, support"
        aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-err` : undefined} />
      <button type="submit" className="btn btn-small btn-primary" data-testid="tags-save" disabled={busy}>Save tags</button>
      <button type="button" className="btn btn-small" onClick={() => setEditing(false)}>Cancel</button>
      {error && <p id={`${id}-err`} className="field-error" role="alert">{error}</p>}
    </form>
  );
}
