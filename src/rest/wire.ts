// Domain values → the JSON the REST API sends. Typed, so each handler's c.json() is
// checked by @hono/zod-openapi against the route's declared response schema.

/** What JSON.stringify makes of T here: Dates become ISO strings, Uint8Array blobs base64. */
export type Wire<T> = T extends Date | Uint8Array
  ? string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

const replacer = (_k: string, v: { data?: unknown; type?: unknown } | null) =>
  v instanceof Uint8Array || (v && v.type === 'Buffer') ? Buffer.from((v as { data?: Uint8Array }).data ?? (v as Uint8Array)).toString('base64') : v;

/** The JSON round trip itself, for what the walk below does not take on (any other toJSON, boxed primitives); toJSON gets its key. */
const roundTrip = (v: unknown, key: string | number): unknown => JSON.parse(JSON.stringify({ [key]: v }, replacer))[key];

// JSON.parse(JSON.stringify(v, replacer)) without the string in between: the handlers
// spread the result and c.json() serialises it again, and the round trip was ~2% of a
// version write's CPU (and its garbage). Same result: undefined, functions and symbols
// left out of objects (null in arrays), non-finite numbers null, -0 as 0, Dates through
// toJSON, Buffers and Uint8Arrays (and anything with type 'Buffer', as the replacer
// said) as base64; test/rest/wire.test.ts compares the two.
function walk(v: unknown, key: string | number): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v + 0 : null;
    case 'object': {
      if (v === null) return null;
      if (v instanceof Date) return v.toJSON();
      if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
      const o = v as Record<string, unknown>;
      if (typeof o.toJSON === 'function' || v instanceof Number || v instanceof String || v instanceof Boolean) return roundTrip(v, key);
      if (o.type === 'Buffer') return replacer('', o as { type: string });
      if (Array.isArray(v)) {
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) out[i] = walk(v[i], i) ?? null;
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(o)) {
        // JSON.parse makes "__proto__" an own property; an assignment would set the prototype.
        if (k === '__proto__') return roundTrip(v, key);
        const w = walk(o[k], k);
        if (w !== undefined) out[k] = w;
      }
      return out;
    }
    case 'bigint':
      return JSON.stringify(v); // throws, as the round trip does
    default:
      return undefined;
  }
}

export function wire<T>(value: T): Wire<T> {
  const w = walk(value, '');
  // A value with no JSON (undefined, a function): the round trip's own answer (it throws).
  if (w === undefined) return JSON.parse(JSON.stringify(value, replacer) as string) as Wire<T>;
  return w as Wire<T>;
}
