// Dotprompt input schemas (Picoschema, or JSON Schema when it has `type`/`properties`)
// ↔ promptd arguments. string, number, integer and boolean become typed arguments;
// other types (array, object, any, named schemas) are imported as strings with a
// warning, and the original schema is kept so an unchanged prompt exports it verbatim.
import type { ArgumentInput } from '../../core/index.js';
import { argumentTypeOf, toArgumentName } from './common.js';

const SCALARS = ['string', 'number', 'integer', 'boolean', 'null', 'any'];

export interface SchemaArguments {
  args: ArgumentInput[];
  /** one message per field whose type promptd cannot hold */
  notes: string[];
  /** JSON Schema `default`s of the properties (Picoschema has none: Dotprompt puts them in input.default) */
  defaults?: Record<string, unknown>;
}

const choicesOf = (values: unknown[]) => {
  const c = values.filter((v) => v !== null).map(String);
  return c.length ? c : undefined;
};

function fromJsonSchema(schema: Record<string, unknown>): SchemaArguments {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const notes: string[] = [];
  const defaults: Record<string, unknown> = {};
  const args = Object.entries(props).map(([key, p]) => {
    if (p && typeof p === 'object' && p.default !== undefined) defaults[key] = p.default;
    const type = typeof p?.type === 'string' ? p.type : Array.isArray(p?.enum) ? 'string' : 'any';
    const typed = argumentTypeOf(type);
    if (!typed) notes.push(`input ${key} is of type ${type}; promptd passes it as text`);
    const choices = Array.isArray(p?.enum) ? choicesOf(p.enum) : undefined;
    return { name: toArgumentName(key), ...(typed && typed !== 'string' ? { type: typed } : {}), required: required.has(key), ...(typeof p?.description === 'string' ? { description: p.description } : {}), ...(choices ? { choices } : {}) };
  });
  return { args, notes, ...(Object.keys(defaults).length ? { defaults } : {}) };
}

/** Top-level fields of an input schema as arguments. */
export function schemaArguments(schema: unknown): SchemaArguments {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return { args: [], notes: schema == null ? [] : ['input.schema is not a mapping; ignored'] };
  const s = schema as Record<string, unknown>;
  if (typeof s.type === 'string' || (s.properties && typeof s.properties === 'object')) return fromJsonSchema(s);
  const notes: string[] = [];
  const args: ArgumentInput[] = [];
  for (const [key, value] of Object.entries(s)) {
    if (key === '(*)') {
      notes.push('wildcard field (*) has no promptd equivalent; ignored');
      continue;
    }
    const m = /^([^?(]+)(\?)?(?:\(([^)]*)\))?$/.exec(key.trim());
    if (!m) {
      notes.push(`field "${key}" is not Picoschema; ignored`);
      continue;
    }
    const [, field, optional, paren] = m as unknown as [string, string, string | undefined, string | undefined];
    let type: string;
    let description: string | undefined;
    let choices: string[] | undefined;
    if (paren !== undefined) {
      const [t, ...rest] = paren.split(',');
      type = t!.trim();
      description = rest.join(',').trim() || undefined;
      if (type === 'enum') {
        if (Array.isArray(value)) choices = choicesOf(value);
        type = 'string';
      }
    } else if (typeof value === 'string') {
      const [t, ...rest] = value.split(',');
      type = t!.trim();
      description = rest.join(',').trim() || undefined;
    } else if (value && typeof value === 'object') {
      type = 'object';
    } else {
      type = 'any';
    }
    const typed = argumentTypeOf(type);
    if (!typed) notes.push(`input ${field} is ${SCALARS.includes(type) || type === 'array' || type === 'object' ? `of type ${type}` : `a ${type} (a named schema)`}; promptd passes it as text`);
    args.push({ name: toArgumentName(field), ...(typed && typed !== 'string' ? { type: typed } : {}), required: !optional, ...(description ? { description } : {}), ...(choices ? { choices } : {}) });
  }
  return { args, notes };
}

/** Arguments → Picoschema fields (`name?: integer, description`; enums with choices, typed as strings). */
export function toPicoschema(args: ArgumentInput[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of args) {
    const opt = a.required ? '' : '?';
    const desc = a.description?.replace(/\n/g, ' ');
    const type = a.type ?? 'string';
    // Picoschema enums hold strings; a typed argument with choices keeps its type and loses the enum (lossWarnings says so).
    if (a.choices?.length && type === 'string') out[`${a.name}${opt}(enum${desc ? `, ${desc.replace(/\)/g, ']')}` : ''})`] = a.choices;
    else out[`${a.name}${opt}`] = desc ? `${type}, ${desc}` : type;
  }
  return out;
}

/** Same arguments, ignoring what a schema cannot say (titles, maxLength). */
export function sameArguments(a: ArgumentInput[], b: ArgumentInput[]): boolean {
  const key = (x: ArgumentInput[]) => JSON.stringify(x.map((y) => [y.name, y.type ?? 'string', Boolean(y.required), y.description ?? null, y.choices ?? null]));
  return key(a) === key(b);
}
