// Release labels as chips (a version's labels, a prompt's labels).
import '../labels.css';

export function LabelChips({ labels, testId = 'label-chip' }: { labels: readonly string[]; testId?: string }) {
  if (labels.length === 0) return null;
  return (
    // Spans, not a list: chips sit inside list items (versions) and are read as "Labels: staging production".
    <span className="chips" role="group" aria-label="Labels">
      {labels.map((l) => (
        <span key={l} className={`chip${l === 'production' ? ' chip-production' : ''}`} data-testid={testId} data-label={l}>
          {l}
        </span>
      ))}
    </span>
  );
}

export const LABEL_RE = /^[a-z0-9][a-z0-9-]{0,35}$/;

/** The same rule as the server's (src/core/schemas.ts LabelNameSchema), said before the round trip. */
export function checkLabel(v: string): string | null {
  if (!v) return 'Enter a label.';
  if (v === 'latest') return '"latest" always means the newest version and cannot be set.';
  if (!LABEL_RE.test(v)) return 'A label is 1 to 36 lowercase letters, digits and "-", starting with a letter or digit.';
  return null;
}
