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

export function wire<T>(value: T): Wire<T> {
  return JSON.parse(JSON.stringify(value, (_k, v) => (v instanceof Uint8Array || (v && v.type === 'Buffer') ? Buffer.from(v.data ?? v).toString('base64') : v))) as Wire<T>;
}
