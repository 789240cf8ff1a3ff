// Rendering includes (docs/contracts.md#includes). `{{> x}}` in a text template
// inserts x's text messages, rendered with the includer's argument values; an include
// message splices all of x's rendered messages. Included text is handed to Mustache as
// finished text, so an argument value is never evaluated as a template at any depth
// (a value containing `{{> secret}}` or `{{x}}` stays literal).
//
// The work of one rendering is bounded (issue #36.4: 8 levels of 6 includes were 6^8
// renders and blocked the event loop for seconds). First every include below the
// prompt is resolved once per prompt version (the include graph, memoised: cycles,
// depth and missing prompts are found here, in false sections too) and at most
// INCLUDE_BUDGET.prompts versions may be reached. Then templates render, and an
// include renders only when Mustache reaches it in a section that is shown, once per
// prompt version and values (memoised), at most INCLUDE_BUDGET.renders times.
import { createHash } from 'node:crypto';
import { DomainError } from './errors.js';
import { formatIncludeRef, MAX_INCLUDE_DEPTH, parseIncludeRef, type IncludeRef } from './include-ref.js';
import { LIMITS, type IncludeContent } from './schemas.js';
import { renderTemplate, templateInfo } from './template.js';
import type { Message, RenderedPrompt, Version } from './types.js';

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
  /** the memos and counts of the outermost rendering, shared by the nested ones (renderVersion makes it) */
  work?: IncludeWork;
}

/** An include outside the caller's scope: refused without naming the included prompt (its name is another team's). */
export const outOfScopeError = (promptName: string) =>
  includeError(promptName, "it includes a prompt outside this client's scope (its token's tags)");

/**
 * Bounds of one rendering, also enforced when a version is written
 * (services/include-checks.ts): prompt versions its includes may reach, and include
 * renders (text includes and include messages, memo hits not counted), and characters
 * text includes may render in all (what bounds the time of the synchronous part).
 */
export const INCLUDE_BUDGET = { prompts: 100, renders: 500, chars: LIMITS.renderedPromptChars } as const;

/** An included prompt version as reached through text includes (`text`) or include messages (`message`). */
interface IncludeNode {
  key: string;
  target: IncludeTarget;
  /** its text messages (what a text include inserts) */
  own: string[];
  /** its includes: the ref as written → the node it resolves to */
  children: Map<string, IncludeNode>;
  /** levels from it down to its deepest include, itself counted */
  height: number;
  /** names on one deepest chain, its own first */
  deepest: string[];
  /** every prompt name in its include graph, its own included */
  names: Set<string>;
}

export interface IncludeWork {
  readonly resolved: Map<string, Promise<IncludeTarget | null>>;
  readonly nodes: Map<string, IncludeNode>;
  readonly texts: Map<string, string>;
  readonly spliced: Map<string, Promise<RenderedPrompt>>;
  /** prompt versions reached, as text or as messages alike (INCLUDE_BUDGET.prompts) */
  readonly reached: Set<string>;
  /** includes rendered (INCLUDE_BUDGET.renders); read by tests */
  renders: number;
  /** characters text includes rendered (INCLUDE_BUDGET.chars) */
  chars: number;
  /** when the rendering last let the event loop run (performance.now()) */
  yielded: number;
}

export const newIncludeWork = (): IncludeWork => ({ resolved: new Map(), nodes: new Map(), texts: new Map(), spliced: new Map(), reached: new Set(), renders: 0, chars: 0, yielded: performance.now() });

/**
 * A broken include is the author's to fix, never the client's: a conflict between what
 * is served, with a message naming the prompts involved.
 */
export const includeError = (promptName: string, message: string) =>
  new DomainError('conflict', `prompt "${promptName}" cannot be rendered: ${message}`, [{ path: 'messages', message }]);

/** The key of a set of values, short whatever their size. */
export function valuesKey(values: Record<string, string>): string {
  const h = createHash('sha256');
  for (const k of Object.keys(values).sort()) h.update(`${k.length}:${k}${values[k]!.length}:${values[k]}`);
  return h.digest('base64');
}

const textsOf = (messages: readonly Message[]) => messages.flatMap((m) => (m.content.type === 'text' ? [m.content.text] : []));
const messageRef = (c: IncludeContent): IncludeRef => ({ prompt: c.prompt, ...(c.label !== undefined ? { label: c.label } : {}), ...(c.version !== undefined ? { version: c.version } : {}) });

/** An include to follow: as text (a text include inserts text messages only) or as a whole prompt (an include message). */
interface Edge {
  ref: IncludeRef;
  asText: boolean;
}

/**
 * The includes a rendering of `messages` follows: text includes always (keyed as
 * written), include messages (keyed `message:ref`) unless the prompt is inserted as text.
 */
function refsOf(messages: readonly Message[], root: string, asText: boolean): Map<string, Edge> {
  const out = new Map<string, Edge>();
  for (const t of textsOf(messages)) {
    for (const raw of templateInfo(t).partials) {
      const ref = parseIncludeRef(raw);
      if (!ref) throw includeError(root, `{{> ${raw}}} is not an include`);
      out.set(raw, { ref, asText: true });
    }
  }
  if (!asText) {
    for (const m of messages) if (m.content.type === 'include') out.set(`message:${formatIncludeRef(messageRef(m.content))}`, { ref: messageRef(m.content), asText: false });
  }
  return out;
}

async function resolveOnce(ref: IncludeRef, ctx: IncludeContext, work: IncludeWork, path: string[]): Promise<IncludeTarget> {
  const key = formatIncludeRef(ref);
  let p = work.resolved.get(key);
  if (!p) work.resolved.set(key, (p = ctx.resolve(ref)));
  const target = await p;
  if (!target) {
    const where = ref.version !== undefined ? `version ${ref.version}` : ref.label !== undefined ? `label "${ref.label}"` : `label "${ctx.label}"${ctx.label === 'production' ? '' : ' or production'}`;
    throw includeError(path[0]!, `"${path.at(-1)}" includes "${key}", and no prompt "${ref.prompt}" is served under ${where}`);
  }
  if (ctx.mayInclude && !(await ctx.mayInclude(target.name))) throw outOfScopeError(path[0]!);
  return target;
}

/** A chain of names from `node` down to one named `name` (breadth first: the graph is shared). */
function chainTo(node: IncludeNode, name: string): string[] {
  const from = new Map<IncludeNode, IncludeNode | null>([[node, null]]);
  const queue = [node];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]!;
    if (n.target.name === name && n !== node) {
      const out: string[] = [];
      for (let at: IncludeNode | null = n; at; at = from.get(at)!) out.unshift(at.target.name);
      return out;
    }
    for (const c of n.children.values()) if (!from.has(c)) (from.set(c, n), queue.push(c));
  }
  return [node.target.name, name];
}

/**
 * The include graph below `messages` (rendered at `path`): each include resolved, each
 * prompt version expanded once per rendering. Throws on a missing include, a cycle, too
 * deep a nesting or more than INCLUDE_BUDGET.prompts versions.
 */
async function expand(refs: Map<string, Edge>, ctx: IncludeContext, work: IncludeWork, path: string[]): Promise<Map<string, IncludeNode>> {
  const root = path[0]!;
  const out = new Map<string, IncludeNode>();
  for (const [raw, { ref, asText }] of refs) {
    const target = await resolveOnce(ref, ctx, work, path);
    const trail = [...path, target.name];
    if (path.includes(target.name)) throw includeError(root, `include cycle ${trail.join(' → ')}`);
    const key = `${target.name}@${target.version.version}${asText ? '' : '+messages'}`;
    let node = work.nodes.get(key);
    if (node) {
      const back = path.find((n) => node!.names.has(n));
      if (back !== undefined) throw includeError(root, `include cycle ${[...path, ...chainTo(node, back)].join(' → ')}`);
      if (path.length - 1 + node.height > MAX_INCLUDE_DEPTH) {
        throw includeError(root, `includes nest deeper than ${MAX_INCLUDE_DEPTH} levels (${[...path, ...node.deepest].slice(0, MAX_INCLUDE_DEPTH + 2).join(' → ')})`);
      }
    } else {
      if (trail.length - 1 > MAX_INCLUDE_DEPTH) throw includeError(root, `includes nest deeper than ${MAX_INCLUDE_DEPTH} levels (${trail.join(' → ')})`);
      work.reached.add(`${target.name}@${target.version.version}`);
      if (work.reached.size > INCLUDE_BUDGET.prompts) {
        throw includeError(root, `its includes reach more than ${INCLUDE_BUDGET.prompts} prompt versions (at ${trail.join(' → ')})`);
      }
      const children = await expand(refsOf(target.version.messages, root, asText), ctx, work, trail);
      let below: IncludeNode | undefined;
      const names = new Set([target.name]);
      for (const c of children.values()) {
        if (!below || c.height > below.height) below = c;
        for (const n of c.names) names.add(n);
      }
      node = { key, target, own: textsOf(target.version.messages), children, height: 1 + (below?.height ?? 0), deepest: [target.name, ...(below?.deepest ?? [])], names };
      work.nodes.set(key, node);
    }
    out.set(raw, node);
  }
  return out;
}

/**
 * The include graph of a version about to render at `path` (its text includes and
 * include messages), checked; undefined when it includes nothing.
 */
export async function prepareIncludes(messages: readonly Message[], ctx: IncludeContext | undefined, path: string[]): Promise<Map<string, IncludeNode> | undefined> {
  const refs = refsOf(messages, path[0]!, false);
  if (!refs.size) return undefined;
  if (!ctx) {
    // Include messages are refused where they are rendered, naming the message.
    const text = [...refs].find(([, e]) => e.asText);
    if (text) throw includeError(path[0]!, `it includes "${text[0]}", which this rendering cannot resolve`);
    return undefined;
  }
  return expand(refs, ctx, ctx.work ?? newIncludeWork(), path);
}

const countRender = (work: IncludeWork, root: string) => {
  if (++work.renders > INCLUDE_BUDGET.renders) throw includeError(root, `its includes render more than ${INCLUDE_BUDGET.renders} times`);
};

/** A text include's text: its text messages rendered with `view`, once per rendering and values. */
function includedText(node: IncludeNode, view: Record<string, string>, viewKey: string, work: IncludeWork, root: string): string {
  const key = `${node.target.name}@${node.target.version.version}\u0000${viewKey}`;
  const done = work.texts.get(key);
  if (done !== undefined) return done;
  countRender(work, root);
  const text = node.own.map((t) => renderTemplate(t, view, undefined, textIncludes(node.children, view, viewKey, work, root))).join('\n\n');
  if (text.length > LIMITS.renderedPromptChars) throw includeError(root, `"${formatIncludeRef({ prompt: node.target.name, version: node.target.version.version })}" renders to more than ${LIMITS.renderedPromptChars} characters`);
  work.chars += text.length;
  if (work.chars > INCLUDE_BUDGET.chars) throw includeError(root, `its includes render more than ${INCLUDE_BUDGET.chars} characters in all`);
  work.texts.set(key, text);
  return text;
}

/**
 * The `{{> ref}}` function renderTemplate calls for one template's includes: an include
 * renders when Mustache reaches it (never in a section that is not shown).
 */
export function textIncludes(nodes: Map<string, IncludeNode> | undefined, view: Record<string, string>, viewKey: string, work: IncludeWork, root: string): ((ref: string) => string) | undefined {
  if (!nodes?.size) return undefined;
  // A template may name one include many times: the budget counts every insertion.
  let written = 0;
  return (raw) => {
    const node = nodes.get(raw);
    const text = node ? includedText(node, view, viewKey, work, root) : '';
    written += text.length;
    if (written > LIMITS.renderedPromptChars) throw includeError(root, `its includes add more than ${LIMITS.renderedPromptChars} characters`);
    return text;
  };
}

type RenderNested = (name: string, version: Version, args: Record<string, string>, ctx: IncludeContext) => Promise<RenderedPrompt>;

/**
 * An include message: the included prompt rendered with its arguments taken from the
 * message's mapping (templates over the includer's values) or, unmapped, the
 * includer's value of the same name. Once per rendering, prompt version and arguments.
 */
export async function renderIncludeMessage(c: IncludeContent, view: Record<string, string>, ctx: IncludeContext, path: string[], render: RenderNested): Promise<RenderedPrompt> {
  const work = ctx.work ?? newIncludeWork();
  const ref = messageRef(c);
  const target = await resolveOnce(ref, ctx, work, path);
  const inner = [...path, target.name];
  if (path.includes(target.name)) throw includeError(path[0]!, `include cycle ${inner.join(' → ')}`);
  if (inner.length - 1 > MAX_INCLUDE_DEPTH) throw includeError(path[0]!, `includes nest deeper than ${MAX_INCLUDE_DEPTH} levels (${inner.join(' → ')})`);
  const args: Record<string, string> = Object.create(null);
  for (const a of target.version.arguments) {
    const mapped = c.arguments && Object.hasOwn(c.arguments, a.name) ? c.arguments[a.name] : undefined;
    const v = mapped !== undefined ? renderTemplate(mapped, view) : Object.hasOwn(view, a.name) ? view[a.name] : undefined;
    if (v !== undefined && v !== '') args[a.name] = v;
  }
  const key = `${target.name}@${target.version.version}\u0000${valuesKey(args)}`;
  let done = work.spliced.get(key);
  if (!done) {
    countRender(work, path[0]!);
    work.spliced.set(key, (done = render(target.name, target.version, args, { ...ctx, path: inner, work })));
  }
  return done;
}

/**
 * Lets the event loop run when this rendering has held it for YIELD_MS: called between
 * messages, so a large rendering delays other requests by about one message's work.
 */
const YIELD_MS = 20;
export async function yieldSometimes(work: IncludeWork | undefined): Promise<void> {
  if (!work || performance.now() - work.yielded < YIELD_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  work.yielded = performance.now();
}
