// Rendering includes (docs/contracts.md#includes). `{{> x}}` in a text template
// inserts x's text messages, rendered with the includer's argument values; an include
// message splices all of x's rendered messages. Includes are resolved and rendered
// before the template that names them, and handed to Mustache as finished text, so an
// argument value is never evaluated as a template at any depth (a value containing
// `{{> secret}}` or `{{x}}` stays literal).
import { DomainError } from './errors.js';
import { formatIncludeRef, MAX_INCLUDE_DEPTH, parseIncludeRef, type IncludeRef } from './include-ref.js';
import { LIMITS, type IncludeContent } from './schemas.js';
import { renderTemplate, templateInfo } from './template.js';
import type { RenderedPrompt, Version } from './types.js';

export interface IncludeTarget {
  /** the included prompt's name */
  name: string;
  version: Version;
}

/** How one rendering resolves includes: the served view's label, production as fallback. */
export interface IncludeContext {
  /** the label being served: unpinned includes resolve under it, then under production */
  label: string;
  /** the version `ref` names in this rendering; null when nothing is served there */
  resolve(ref: IncludeRef): Promise<IncludeTarget | null>;
  /** prompts being rendered, outermost first (guards cycles and depth) */
  path?: string[];
  /**
   * The caller's scope check (an MCP token's tags): false refuses the include. Set by
   * the caller that knows the scope (catalog.ts scopedView); absent: every prompt.
   */
  mayInclude?: (name: string) => boolean | Promise<boolean>;
}

/** An include outside the caller's scope: refused without naming the included prompt (its name is another team's). */
export const outOfScopeError = (promptName: string) =>
  includeError(promptName, "it includes a prompt outside this client's scope (its token's tags)");

/**
 * A broken include is the author's to fix, never the client's: a conflict between what
 * is served, with a message naming the prompts involved.
 */
export const includeError = (promptName: string, message: string) =>
  new DomainError('conflict', `prompt "${promptName}" cannot be rendered: ${message}`, [{ path: 'messages', message }]);

async function enter(ref: IncludeRef, ctx: IncludeContext, path: string[]): Promise<{ target: IncludeTarget; path: string[] }> {
  const root = path[0]!;
  const target = await ctx.resolve(ref);
  if (!target) {
    const where = ref.version !== undefined ? `version ${ref.version}` : ref.label !== undefined ? `label "${ref.label}"` : `label "${ctx.label}"${ctx.label === 'production' ? '' : ' or production'}`;
    throw includeError(root, `"${path.at(-1)}" includes "${formatIncludeRef(ref)}", and no prompt "${ref.prompt}" is served under ${where}`);
  }
  if (ctx.mayInclude && !(await ctx.mayInclude(target.name))) throw outOfScopeError(root);
  const next = [...path, target.name];
  if (path.includes(target.name)) throw includeError(root, `include cycle ${next.join(' → ')}`);
  if (next.length - 1 > MAX_INCLUDE_DEPTH) throw includeError(root, `includes nest deeper than ${MAX_INCLUDE_DEPTH} levels (${next.join(' → ')})`);
  return { target, path: next };
}

/**
 * The `{{> ref}}` includes of `texts`, each rendered once with `view` (the includer's
 * values): a function for renderTemplate, or undefined when there are none.
 */
export async function renderPartials(texts: readonly string[], view: Record<string, string>, ctx: IncludeContext | undefined, path: string[]): Promise<((ref: string) => string) | undefined> {
  const refs = new Set<string>();
  for (const t of texts) for (const r of templateInfo(t).partials) refs.add(r);
  if (!refs.size) return undefined;
  const root = path[0]!;
  if (!ctx) throw includeError(root, `it includes "${[...refs][0]}", which this rendering cannot resolve`);
  const rendered = new Map<string, string>();
  for (const raw of refs) {
    const ref = parseIncludeRef(raw);
    if (!ref) throw includeError(root, `{{> ${raw}}} is not an include`);
    const { target, path: inner } = await enter(ref, { ...ctx }, path);
    const own = target.version.messages.flatMap((m) => (m.content.type === 'text' ? [m.content.text] : []));
    const nested = await renderPartials(own, view, ctx, inner);
    const text = own.map((t) => renderTemplate(t, view, undefined, nested)).join('\n\n');
    if (text.length > LIMITS.renderedPromptChars) throw includeError(root, `"${formatIncludeRef(ref)}" renders to more than ${LIMITS.renderedPromptChars} characters`);
    rendered.set(raw, text);
  }
  // A template may name one include many times: the budget counts every insertion.
  let written = 0;
  return (raw) => {
    const text = rendered.get(raw) ?? '';
    written += text.length;
    if (written > LIMITS.renderedPromptChars) throw includeError(root, `its includes add more than ${LIMITS.renderedPromptChars} characters`);
    return text;
  };
}

type RenderNested = (name: string, version: Version, args: Record<string, string>, ctx: IncludeContext) => Promise<RenderedPrompt>;

/**
 * An include message: the included prompt rendered with its arguments taken from the
 * message's mapping (templates over the includer's values) or, unmapped, the
 * includer's value of the same name.
 */
export async function renderIncludeMessage(c: IncludeContent, view: Record<string, string>, ctx: IncludeContext, path: string[], render: RenderNested): Promise<RenderedPrompt> {
  const ref: IncludeRef = { prompt: c.prompt, ...(c.label !== undefined ? { label: c.label } : {}), ...(c.version !== undefined ? { version: c.version } : {}) };
  const { target, path: inner } = await enter(ref, ctx, path);
  const args: Record<string, string> = Object.create(null);
  for (const a of target.version.arguments) {
    const mapped = c.arguments && Object.hasOwn(c.arguments, a.name) ? c.arguments[a.name] : undefined;
    const v = mapped !== undefined ? renderTemplate(mapped, view) : Object.hasOwn(view, a.name) ? view[a.name] : undefined;
    if (v !== undefined && v !== '') args[a.name] = v;
  }
  return render(target.name, target.version, args, { ...ctx, path: inner });
}
