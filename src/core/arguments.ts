// Typed arguments (docs/contracts.md, "Typed arguments"): MCP sends every argument
// value as a string, so promptd parses it by the argument's declared type, fills
// missing optional values from their defaults, and describes the arguments as one
// JSON Schema that drives the per-prompt tools, completion and the REST previews.
import type { FieldError } from './errors.js';
import { LIMITS, type ArgumentType } from './schemas.js';
import type { Argument } from './types.js';

/** A value a caller may send: MCP always sends strings; JSON bodies and tool calls may send numbers and booleans. */
export type ArgumentValue = string | number | boolean;
/** A parsed value, as templates see it. */
export type TypedValue = string | number | boolean;

const INTEGER = /^[+-]?\d+$/;
// Decimal notation only: no hex, no "Infinity", no empty string (Number('') is 0).
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** An argument as stored (Argument) or as written (ArgumentInput: type and default optional). */
export interface ArgumentLike {
  type?: ArgumentType;
  default?: string | number | boolean | null;
  required?: boolean;
  choices?: string[] | null;
  maxLength?: number | null;
}

export const typeOf = (a: ArgumentLike): ArgumentType => a.type ?? 'string';

const shown = (v: unknown) => (typeof v === 'string' ? `"${v.length > 60 ? `${v.slice(0, 57)}...` : v}"` : String(v));

const expected: Record<ArgumentType, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
};

/** What a value of type `type` must look like, for messages: `must be an integer`. */
export const mustBe = (type: ArgumentType) => `must be ${expected[type]}`;

/**
 * `value` parsed as `type`; `undefined` when it is not one. Strings are parsed
 * (surrounding spaces ignored for numbers and booleans); a JSON number or boolean is
 * taken as is when it fits the type.
 */
export function parseTyped(type: ArgumentType, value: unknown): TypedValue | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'integer': {
      if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
      if (typeof value !== 'string' || !INTEGER.test(value.trim())) return undefined;
      const n = Number(value.trim());
      return Number.isSafeInteger(n) ? n : undefined;
    }
    case 'number': {
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      if (typeof value !== 'string' || !DECIMAL.test(value.trim())) return undefined;
      const n = Number(value.trim());
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (typeof value !== 'string') return undefined;
      const s = value.trim().toLowerCase();
      return s === 'true' ? true : s === 'false' ? false : undefined;
    }
  }
}

/** `argument "count" must be an integer (got "ten")` */
export const typeMessage = (name: string, type: ArgumentType, got: unknown) => `argument "${name}" ${mustBe(type)} (got ${shown(got)})`;

/** A choice matches the value when it parses to the same value (`"2"` and `2.0` for a number). */
export const inChoices = (a: ArgumentLike, value: TypedValue) =>
  !a.choices || a.choices.some((c) => parseTyped(typeOf(a), c) === value);

export interface ResolvedArguments {
  errors: FieldError[];
  /** name → parsed value, defaults filled in; missing optional arguments are absent */
  values: Record<string, TypedValue>;
}

/**
 * Checks and parses the values a caller sent against the declared arguments:
 * unknown names, missing required values, types, choices and maxLength; an empty
 * string counts as missing. Optional arguments left out take their default.
 */
export function resolveArguments(promptName: string, args: readonly Argument[], input: Record<string, unknown>): ResolvedArguments {
  const errors: FieldError[] = [];
  const values: Record<string, TypedValue> = Object.create(null);
  const byName = new Map(args.map((a) => [a.name, a]));
  for (const k of Object.keys(input)) {
    if (!byName.has(k)) {
      const known = args.map((a) => a.name).join(', ') || 'no arguments';
      errors.push({ path: `arguments.${k}`, message: `unknown argument "${k}" for prompt "${promptName}" (it takes: ${known})` });
    }
  }
  for (const a of args) {
    const raw = Object.hasOwn(input, a.name) ? input[a.name] : undefined;
    const path = `arguments.${a.name}`;
    if (raw === undefined || raw === null || raw === '') {
      if (a.required) errors.push({ path, message: `missing required argument "${a.name}" for prompt "${promptName}"` });
      else if (a.default != null) values[a.name] = a.default;
      continue;
    }
    const type = typeOf(a);
    // Checked before parsing: a 100k-character "number" is refused for its length.
    const max = type === 'string' ? Math.min(a.maxLength ?? LIMITS.argumentValueLength, LIMITS.argumentValueLength) : LIMITS.argumentValueLength;
    if (typeof raw === 'string' && raw.length > max) {
      errors.push({ path, message: `argument "${a.name}" is ${raw.length} characters long; the limit is ${max}` });
      continue;
    }
    const v = parseTyped(type, raw);
    if (v === undefined) {
      errors.push({ path, message: typeMessage(a.name, type, raw) });
      continue;
    }
    if (!inChoices(a, v)) {
      errors.push({ path, message: `argument "${a.name}" must be one of: ${a.choices!.join(', ')} (got ${shown(raw)})` });
      continue;
    }
    values[a.name] = v;
  }
  return { errors, values };
}

/** The problems of one declared argument's default: type, choices, maxLength, required. */
export function defaultProblems(a: ArgumentLike): string[] {
  if (a.default == null) return [];
  const type = typeOf(a);
  const d = a.default;
  // A default is stored as JSON: it must already be of the type, not a string to parse.
  const ok = type === 'string' ? typeof d === 'string' : type === 'boolean' ? typeof d === 'boolean' : typeof d === 'number' && parseTyped(type, d) !== undefined;
  if (!ok) return [`the default ${mustBe(type)} (the argument's type; got ${typeof d === 'string' ? `the string ${shown(d)}` : shown(d)})`];
  const out: string[] = [];
  if (a.required) out.push('a required argument never uses its default: make the argument optional or remove the default');
  if (!inChoices(a, d)) out.push(`the default ${shown(d)} is not one of the choices (${a.choices!.join(', ')})`);
  if (typeof d === 'string' && a.maxLength != null && d.length > a.maxLength) out.push(`the default is ${d.length} characters long; maxLength is ${a.maxLength}`);
  return out;
}

/** Choices of a typed argument that do not parse as its type (an integer's "two"). */
export function badChoices(a: ArgumentLike): string[] {
  const type = typeOf(a);
  return (a.choices ?? []).filter((c) => parseTyped(type, c) === undefined);
}

type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a prompt's arguments: types, enum (typed), default, maxLength,
 * required, titles and descriptions. Per-prompt tools take it as their inputSchema.
 */
export function argumentsJsonSchema(args: readonly Argument[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const a of args) {
    const type = typeOf(a);
    properties[a.name] = {
      type,
      ...(a.title ? { title: a.title } : {}),
      ...(a.description ? { description: a.description } : {}),
      ...(a.choices?.length ? { enum: a.choices.map((c) => parseTyped(type, c) ?? c) } : {}),
      ...(a.maxLength != null && type === 'string' ? { maxLength: a.maxLength } : {}),
      ...(a.default != null ? { default: a.default } : {}),
    };
  }
  const required = args.filter((a) => a.required).map((a) => a.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** What completion offers for an argument: its choices, or true/false for a boolean. */
export function completionCandidates(a: ArgumentLike): string[] {
  if (a.choices?.length) return a.choices;
  return typeOf(a) === 'boolean' ? ['true', 'false'] : [];
}
