// How library files are parsed (read-library.ts), shared with the parse-ahead worker so
// both threads turn the same text into the same value.
export const YAML_OPTIONS = { uniqueKeys: true, prettyErrors: true } as const;

/**
 * True when `v` is made of what a copy between threads keeps exactly: strings, numbers,
 * booleans, null, arrays and plain objects (no `__proto__` key). Anything else a
 * YAML tag could produce is parsed again on the reader's thread.
 */
export function isPlainData(v: unknown, depth = 0): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v !== 'object' || depth > 64) return false;
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every((x) => isPlainData(x, depth + 1));
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.hasOwn(v, '__proto__')) return false;
  for (const k in v) if (!isPlainData((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}
