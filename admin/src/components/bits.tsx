// Small shared pieces: field errors, banners, times, badges.
import type { ReactNode } from 'react';

export type Messages = Record<string, string>;
const noteId = (path: string) => `note-${path.replace(/[^A-Za-z0-9]/g, '-')}`;

/** Server errors at `path` (or, with prefix, under it, e.g. arguments[1].choices[0]). */
function collect(errors: Messages, path: string, prefix: boolean): string | undefined {
  if (!prefix) return errors[path];
  const hits = Object.entries(errors).filter(([k]) => k === path || k.startsWith(`${path}[`) || k.startsWith(`${path}.`));
  return hits.length ? hits.map(([, v]) => v).join('; ') : undefined;
}

/** The element an API 422 error path lands in (tests find it by data-error-for); else a live client-side warning. */
export function FieldError({ path, errors, warnings = {}, prefix = false }: { path: string; errors: Messages; warnings?: Messages; prefix?: boolean }) {
  const msg = collect(errors, path, prefix);
  if (msg) {
    return (
      <p className="field-error" role="alert" data-error-for={path} id={noteId(path)}>
        {msg}
      </p>
    );
  }
  const warn = warnings[path];
  if (!warn) return null;
  return (
    <p className="field-warning" data-warning-for={path} id={noteId(path)}>
      {warn}
    </p>
  );
}

/** aria-invalid / aria-describedby for the input at `path`; data-path lets the editor track touched fields and focus them from the error summary. */
export function describe(path: string, errors: Messages, warnings: Messages = {}) {
  const has = errors[path] !== undefined || warnings[path] !== undefined;
  return { 'aria-invalid': errors[path] !== undefined || undefined, 'aria-describedby': has ? noteId(path) : undefined, 'data-path': path };
}

/** `live={false}` inside an already-live region (a role on a freshly inserted node is not reliably announced). */
export function Banner({ kind, children, testId, live = true }: { kind: 'error' | 'info' | 'success' | 'warning'; children: ReactNode; testId?: string; live?: boolean }) {
  return (
    <div className={`banner banner-${kind}`} role={live ? (kind === 'error' ? 'alert' : 'status') : undefined} data-testid={testId}>
      {children}
    </div>
  );
}

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const dtf = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function relative(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 45) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 86400 * 30) return rtf.format(Math.round(s / 86400), 'day');
  return dtf.format(t);
}

export function Time({ iso }: { iso: string }) {
  const t = Date.parse(iso);
  return (
    <time dateTime={iso} title={Number.isNaN(t) ? iso : dtf.format(t)}>
      {relative(iso)}
    </time>
  );
}

export function Badge({ kind, children }: { kind: 'active' | 'muted' | 'warn' | 'info'; children: ReactNode }) {
  return <span className={`badge badge-${kind}`}>{children}</span>;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
