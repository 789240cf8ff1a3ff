// Stable, readable file names for exported resources, derived from the URI alone so
// the same resource lands in the same file on every export:
//   file:///project/src/a.ts        → resources/file/project/src/a.ts
//   logs://recent?timeframe=24h     → resources/logs/recent-timeframe-24h.txt
import { createHash } from 'node:crypto';

const EXTENSIONS: Record<string, string> = {
  'text/plain': '.txt',
  'text/markdown': '.md',
  'text/html': '.html',
  'text/css': '.css',
  'text/csv': '.csv',
  'text/x-typescript': '.ts',
  'text/typescript': '.ts',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'text/x-python': '.py',
  'application/json': '.json',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'application/yaml': '.yaml',
  'text/yaml': '.yaml',
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'audio/mpeg': '.mp3',
  'audio/wav': '.wav',
  'audio/ogg': '.ogg',
};

export function extensionFor(mimeType: string): string {
  const m = mimeType.toLowerCase().split(';')[0]!.trim();
  return EXTENSIONS[m] ?? (m.startsWith('text/') ? '.txt' : '.bin');
}

const clean = (s: string) =>
  s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-').replace(/^[-.]+|[-.]+$/g, '') || '_';

const hasExtension = (s: string) => /\.[A-Za-z0-9]{1,8}$/.test(s);

/**
 * `taken` holds names already handed out (lower-cased, for case-insensitive file
 * systems); a clash, or a file/directory conflict, falls back to a hashed name.
 */
export function resourceFileName(uri: string, mimeType: string, taken: Set<string>): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(uri);
  const scheme = clean((m?.[1] ?? 'resource').toLowerCase());
  const rest = (m?.[2] ?? uri).replace(/^\/+/, '');
  const q = rest.search(/[?#]/);
  const pathPart = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q + 1);
  const segments = pathPart.split('/').filter(Boolean).map(clean);
  if (!segments.length) segments.push('index');
  if (query) segments[segments.length - 1] += `-${clean(query)}`;
  let last = segments.at(-1)!;
  if (!hasExtension(last)) last += extensionFor(mimeType);
  segments[segments.length - 1] = last;
  let name = ['resources', scheme, ...segments].join('/');

  const clashes = (n: string) => {
    const l = n.toLowerCase();
    if (taken.has(l)) return true;
    // A file may not also be a directory of another file, in either direction.
    for (const t of taken) if (t.startsWith(`${l}/`) || l.startsWith(`${t}/`)) return true;
    return false;
  };
  if (clashes(name)) {
    const hash = createHash('sha256').update(uri).digest('hex').slice(0, 10);
    name = `resources/${scheme}/${hash}-${last}`;
  }
  taken.add(name.toLowerCase());
  return name;
}
