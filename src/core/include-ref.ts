// An include names another prompt, optionally pinned to a label or a version:
// `{{> house-style}}`, `{{> house-style@production}}`, `{{> house-style@3}}` in a text
// template, or an include message `{type: "include", prompt, label?, version?}`.
// See docs/contracts.md#includes.
import { LabelNameSchema, LATEST, PromptNameSchema } from './schemas.js';

/** How deep includes may nest: a prompt including one that includes another… at most this many levels. */
export const MAX_INCLUDE_DEPTH = 8;

export interface IncludeRef {
  prompt: string;
  label?: string;
  version?: number;
}

/** `name`, `name@label` or `name@3`; undefined when it is none of them. */
export function parseIncludeRef(ref: string): IncludeRef | undefined {
  const at = ref.lastIndexOf('@');
  const prompt = at < 0 ? ref : ref.slice(0, at);
  const pin = at < 0 ? undefined : ref.slice(at + 1);
  if (!PromptNameSchema.safeParse(prompt).success) return undefined;
  if (pin === undefined) return { prompt };
  if (/^[1-9][0-9]{0,9}$/.test(pin)) return Number(pin) <= 2_147_483_647 ? { prompt, version: Number(pin) } : undefined;
  if (pin === LATEST || !LabelNameSchema.safeParse(pin).success) return undefined;
  return { prompt, label: pin };
}

export function includeRefProblem(ref: string): string | undefined {
  if (parseIncludeRef(ref)) return undefined;
  return `{{> ${ref}}} is not an include: write {{> prompt-name}}, {{> prompt-name@label}} or {{> prompt-name@version}}`;
}

export const formatIncludeRef = (r: IncludeRef) => `${r.prompt}${r.label !== undefined ? `@${r.label}` : r.version !== undefined ? `@${r.version}` : ''}`;
