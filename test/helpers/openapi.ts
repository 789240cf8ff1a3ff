// Checks REST responses against the OpenAPI document the server publishes, strictly:
// an object schema without `additionalProperties` admits no other keys, so a field the
// handler sends but the document does not declare fails the test.

export type JsonSchema = { [keyword: string]: unknown };
interface Operation { responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }
export interface OpenApiDoc {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

// Keywords that only describe; anything else this validator does not know fails loudly
// rather than passing silently.
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'default', 'format', 'id', 'deprecated', 'readOnly', 'writeOnly', '$schema']);
const HANDLED = new Set(['$ref', 'anyOf', 'oneOf', 'allOf', 'type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'propertyNames', 'items',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems']);

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

/** Every way `value` fails `schema`; empty when it conforms. */
export function schemaErrors(doc: OpenApiDoc, schema: JsonSchema, value: unknown, at = '$'): string[] {
  for (const k of Object.keys(schema)) if (!HANDLED.has(k) && !ANNOTATIONS.has(k)) return [`${at}: unsupported JSON Schema keyword "${k}"`];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    return target ? schemaErrors(doc, target, value, at) : [`${at}: unresolved $ref ${schema.$ref}`];
  }
  const errors: string[] = [];
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) {
    const each = alternatives.map((s) => schemaErrors(doc, s, value, at));
    const passing = each.filter((e) => e.length === 0).length;
    if (passing === 0) errors.push(`${at}: matches none of ${alternatives.length} alternatives (${each.map((e) => e[0]).join(' | ')})`);
    if (schema.oneOf && passing > 1) errors.push(`${at}: matches ${passing} oneOf alternatives`);
  }
  for (const s of (schema.allOf as JsonSchema[] | undefined) ?? []) errors.push(...schemaErrors(doc, s, value, at));
  if (schema.type !== undefined) {
    const types = ([] as string[]).concat(schema.type as string | string[]);
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return [...errors, `${at}: expected ${types.join('|')}, got ${t}`];
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && schema.const !== value) errors.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${at}: below minimum ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${at}: above maximum ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) errors.push(`${at}: longer than ${schema.maxLength}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${at}: does not match ${schema.pattern}`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...schemaErrors(doc, schema.items as JsonSchema, v, `${at}[${i}]`)));
  if (typeOf(value) === 'object' && (schema.properties || schema.additionalProperties !== undefined || schema.type === 'object')) {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const k of (schema.required as string[] | undefined) ?? []) if (!(k in obj)) errors.push(`${at}.${k}: required but missing`);
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) errors.push(...schemaErrors(doc, props[k], v, `${at}.${k}`));
      else if (schema.additionalProperties === undefined || schema.additionalProperties === false) errors.push(`${at}.${k}: not declared in the schema`);
      else if (typeof schema.additionalProperties === 'object') errors.push(...schemaErrors(doc, schema.additionalProperties as JsonSchema, v, `${at}.${k}`));
      if (schema.propertyNames) errors.push(...schemaErrors(doc, schema.propertyNames as JsonSchema, k, `${at} key ${JSON.stringify(k)}`));
    }
  }
  return errors;
}

/** The documented operation a request hit: `path` is relative to the document's server URL, without the query. */
export function findOperation(doc: OpenApiDoc, method: string, path: string): { template: string; op: Operation } | undefined {
  for (const [template, ops] of Object.entries(doc.paths)) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = ops[method.toLowerCase()];
    if (op && re.test(path)) return { template, op };
  }
  return undefined;
}

/**
 * Why a response does not conform to the document (empty when it does). A documented
 * status is checked against its schema; an undocumented error status must still be a
 * Problem; an undocumented success status is an error.
 */
export async function responseErrors(doc: OpenApiDoc, method: string, path: string, res: Response): Promise<string[]> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  // HEAD is answered as GET, without the body.
  const found = findOperation(doc, method === 'HEAD' ? 'GET' : method, path);
  const declared = found?.op.responses[String(res.status)];
  const where = `${method} ${path} → ${res.status}`;
  // A stream never ends: only its media type is checked.
  if (type === 'text/event-stream') return declared?.content?.[type] ? [] : [`${where}: an event stream is not documented here`];
  // CSV is text: only its media type is checked (its rows are tested against the JSON they mirror).
  if (type === 'text/csv') return declared?.content?.[type] ? [] : [`${where}: CSV is not documented here`];
  const text = method === 'HEAD' ? undefined : await res.clone().text();
  const check = (schema: JsonSchema): string[] => {
    if (text === undefined) return [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`${where}: the body is not JSON: ${JSON.stringify(text.slice(0, 80))}`];
    }
    return schemaErrors(doc, schema, value).map((e) => `${where}: ${e}`);
  };
  if (!declared) {
    if (res.status < 400) return [`${where}: status not documented${found ? ` for ${found.template}` : ' (no such route in the document)'}`];
    if (type !== 'application/problem+json') return [`${where}: an error must be application/problem+json, got "${type}"`];
    return check(doc.components.schemas.Problem!);
  }
  if (!declared.content) return !text ? [] : [`${where}: documented without a body, but sent ${JSON.stringify(text.slice(0, 80))}`];
  const media = declared.content[type];
  if (!media) return [`${where}: content-type "${type}" not documented (${Object.keys(declared.content).join(', ')})`];
  // A text body (the audit's CSV) is a string value, not JSON.
  if (type.startsWith('text/') && text !== undefined) return schemaErrors(doc, media.schema, text).map((e) => `${where}: ${e}`);
  return check(media.schema);
}

/** Throws, naming every violation, when a response does not conform to the document. */
export async function assertConforms(doc: OpenApiDoc, method: string, path: string, res: Response): Promise<void> {
  const errors = await responseErrors(doc, method, path, res);
  if (errors.length) throw new Error(`response does not conform to the OpenAPI document:\n  ${errors.slice(0, 20).join('\n  ')}`);
}
