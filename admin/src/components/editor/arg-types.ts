// Typed arguments: MCP sends every value as a string; the server parses it by the argument's type.
// The editor keeps defaults as text (what the author typed) and converts them for the API body.
import type { Argument } from '../../types';

export type ArgType = 'string' | 'number' | 'integer' | 'boolean';
export const ARG_TYPES: { value: ArgType; label: string }[] = [
  { value: 'string', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'integer', label: 'Whole number' },
  { value: 'boolean', label: 'Yes / no' },
];

export function argTypeOf(a: Pick<Argument, 'type'>): ArgType {
  return (a.type as ArgType | undefined) ?? 'string';
}

/** A stored default as the text the form shows ('' = none). */
export function defaultText(d: Argument['default']): string {
  return d === undefined || d === null ? '' : String(d);
}

/** The default as the API wants it, or a problem the author can act on. Empty = no default. */
export function parseDefault(type: ArgType, text: string): { value?: string | number | boolean; problem?: string } {
  const t = text.trim();
  if (t === '') return {};
  if (type === 'boolean') {
    if (t === 'true' || t === 'false') return { value: t === 'true' };
    return { problem: 'A yes/no default is true or false.' };
  }
  if (type === 'number' || type === 'integer') {
    const n = Number(t);
    if (!Number.isFinite(n)) return { problem: 'The default must be a number.' };
    if (type === 'integer' && !Number.isInteger(n)) return { problem: 'The default must be a whole number.' };
    return { value: n };
  }
  return { value: text };
}

/** A sample value's problem for a typed argument (the preview form's inputs), or null. */
export function valueProblem(type: ArgType, v: string): string | null {
  if (v === '' || type === 'string') return null;
  return parseDefault(type, v).problem?.replace('The default', 'The value').replace('A yes/no default', 'A yes/no value') ?? null;
}
