// The include message: splices another prompt's rendered messages here. Pinned by label or
// version (or neither: the label being served, falling back to production); its arguments
// map the included prompt's argument names to templates over this prompt's arguments.
import { scanTemplate } from '../../lib/template-vars';
import { newKey } from './keys';

export type IncludePin = 'served' | 'label' | 'version';
export interface IncludeArgRow { key: string; name: string; value: string }
export interface IncludeRow { prompt: string; pin: IncludePin; label: string; version: string; args: IncludeArgRow[] }

/** The wire shape (IncludeContentSchema in src/core/schemas.ts). */
export interface IncludeContent {
  type: 'include';
  prompt: string;
  label?: string;
  version?: number;
  arguments?: Record<string, string>;
}

export const emptyInclude = (): IncludeRow => ({ prompt: '', pin: 'served', label: '', version: '', args: [] });
export const emptyIncludeArg = (name = ''): IncludeArgRow => ({ key: newKey(), name, value: '' });

export function includeRow(c: IncludeContent): IncludeRow {
  return {
    prompt: c.prompt,
    pin: c.label ? 'label' : c.version ? 'version' : 'served',
    label: c.label ?? '',
    version: c.version ? String(c.version) : '',
    args: Object.entries(c.arguments ?? {}).map(([name, value]) => ({ key: newKey(), name, value })),
  };
}

export function includeBody(r: IncludeRow): IncludeContent {
  const args = r.args.filter((a) => a.name.trim() !== '');
  const v = Number(r.version);
  return {
    type: 'include',
    prompt: r.prompt.trim(),
    ...(r.pin === 'label' && r.label.trim() ? { label: r.label.trim() } : {}),
    // Not a number: sent as-is so the server's 422 names the field.
    ...(r.pin === 'version' && r.version.trim() ? { version: Number.isInteger(v) ? v : (r.version as unknown as number) } : {}),
    ...(args.length ? { arguments: Object.fromEntries(args.map((a) => [a.name.trim(), a.value])) } : {}),
  };
}

/** This prompt's variables the include's argument templates use. */
export function includeVars(r: IncludeRow): string[] {
  return [...new Set(r.args.flatMap((a) => scanTemplate(a.value).names))];
}

export function checkInclude(r: IncludeRow, i: number, declared: Set<string>, w: Record<string, string>): void {
  const p = `messages[${i}].content`;
  if (!r.prompt.trim()) w[`${p}.prompt`] = 'Choose the prompt to include.';
  if (r.pin === 'label' && !/^[a-z0-9][a-z0-9-]{0,35}$/.test(r.label.trim())) w[`${p}.label`] = 'A label: lowercase letters, digits and "-".';
  if (r.pin === 'version' && !/^[1-9]\d*$/.test(r.version.trim())) w[`${p}.version`] = 'A version number, 1 or more.';
  const missing = includeVars(r).filter((n) => !declared.has(n));
  if (missing.length) w[`${p}.arguments`] = `Undeclared: ${missing.map((n) => `{{${n}}}`).join(', ')}. Add ${missing.length === 1 ? 'it' : 'them'} as arguments.`;
}

/** `{{> name}}`, `{{> name@label}}`, `{{> name@3}}` in a text template: the prompt names it includes. */
export function templateIncludes(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{>\s*([A-Za-z0-9_.-]+)(?:@[a-z0-9-]+)?\s*\}\}/g)].map((m) => m[1]!))];
}
