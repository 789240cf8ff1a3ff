// Unsaved editor work kept in this browser (localStorage), one draft per prompt, so a closed tab,
// a dead connection or a stray click never loses it. Cleared when the version is saved or discarded.
import type { Form } from '../components/editor/form-model';

export interface Draft {
  form: Form;
  /** The version and ETag the edits started from (null for a new prompt). */
  base: { etag: string | null; version: number } | null;
  savedAt: string;
}

const PREFIX = 'promptd.draft:';
const keyOf = (name: string | null) => `${PREFIX}${name ?? '(new)'}`;

export function loadDraft(name: string | null): Draft | null {
  try {
    const raw = localStorage.getItem(keyOf(name));
    if (!raw) return null;
    const d = JSON.parse(raw) as Draft;
    return d && typeof d === 'object' && d.form && Array.isArray(d.form.messages) ? d : null;
  } catch {
    return null;
  }
}

export function saveDraft(name: string | null, draft: Omit<Draft, 'savedAt'>): void {
  try {
    localStorage.setItem(keyOf(name), JSON.stringify({ ...draft, savedAt: new Date().toISOString() }));
  } catch {
    /* storage full or disabled: the unsaved-changes guard still protects the work */
  }
}

export function clearDraft(name: string | null): void {
  try {
    localStorage.removeItem(keyOf(name));
  } catch {
    /* ignore */
  }
}

/** Sample argument values, per prompt: shared by the editor preview and the prompt page preview. */
const SAMPLES = 'promptd.samples:';
export function loadSamples(name: string | null): Record<string, string> {
  if (!name) return {};
  try {
    const v = JSON.parse(sessionStorage.getItem(SAMPLES + name) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}
export function saveSamples(name: string | null, values: Record<string, string>): void {
  if (!name) return;
  try {
    sessionStorage.setItem(SAMPLES + name, JSON.stringify(values));
  } catch {
    /* ignore */
  }
}
