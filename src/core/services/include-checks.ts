// Includes at write time and in the admin API (docs/contracts.md#includes): what a
// version's includes resolve to, the rules a write must keep (the included prompt and
// version exist, no cycles, depth at most MAX_INCLUDE_DEPTH, required arguments
// supplied), and who includes a prompt (dependents, the 409 on delete/archive, the
// impact of moving a label).
import { DomainError, invalid, type FieldError } from '../errors.js';
import { includeRefsOf } from '../catalog-includes.js';
import { formatIncludeRef, MAX_INCLUDE_DEPTH, parseIncludeRef, type IncludeRef } from '../include-ref.js';
import { INCLUDE_BUDGET } from '../render-includes.js';
import { analyzeTemplate } from '../template.js';
import { LATEST, PRODUCTION, type VersionInput } from '../schemas.js';
import type { Repositories } from '../ports.js';
import type { Version } from '../types.js';

/** An include of a version, with where it is written (a field path of the version input). */
interface Located {
  ref: IncludeRef;
  path: string;
  /** include message: its argument mapping; text include: undefined */
  mapping?: Record<string, string>;
}

function locate(messages: VersionInput['messages']): Located[] {
  const out: Located[] = [];
  messages.forEach((m, i) => {
    const c = m.content;
    if (c.type === 'text' && c.text.includes('{{>')) {
      for (const raw of analyzeTemplate(c.text).includes) {
        const ref = parseIncludeRef(raw);
        if (ref) out.push({ ref, path: `messages[${i}].content.text` });
      }
    } else if (c.type === 'include') {
      const ref = { prompt: c.prompt, ...(c.label !== undefined ? { label: c.label } : {}), ...(c.version !== undefined ? { version: c.version } : {}) };
      out.push({ ref, path: `messages[${i}].content`, mapping: c.arguments ?? {} });
    }
  });
  return out;
}

/**
 * What an include names as stored now: the pinned version, the pinned label's version,
 * or (unpinned) the production version, else the latest. A problem string when none.
 */
export async function resolveStored(tx: Repositories, ref: IncludeRef): Promise<{ version: Version } | { problem: string }> {
  const head = await tx.prompts.head(ref.prompt);
  if (!head) return { problem: `included prompt "${ref.prompt}" does not exist` };
  if (head.archived) return { problem: `included prompt "${ref.prompt}" is archived` };
  let number: number;
  if (ref.version !== undefined) number = ref.version;
  else if (ref.label !== undefined) {
    const [p] = await tx.labels.carrying(ref.label, [ref.prompt]);
    if (!p) return { problem: `included prompt "${ref.prompt}" has no label "${ref.label}"` };
    number = p.version;
  } else number = head.activeVersion ?? head.latestVersion;
  const version = await tx.prompts.version(ref.prompt, number);
  if (!version) return { problem: `included prompt "${ref.prompt}" has no version ${number}` };
  return { version };
}

/**
 * Checks the includes of versions being written, inside the write's transaction and
 * after its versions and labels are stored (so prompts created together may include
 * each other). Throws a 422 naming the failing field.
 */
export async function checkIncludes(tx: Repositories, name: string, input: VersionInput): Promise<void> {
  const located = locate(input.messages);
  if (!located.length) return;
  const errors: FieldError[] = [];
  const declared = new Map(input.arguments.map((a) => [a.name, a]));
  const memo = new Map<string, Promise<{ version: Version } | { problem: string }>>();
  const resolve = (ref: IncludeRef) => {
    const key = formatIncludeRef(ref);
    let r = memo.get(key);
    if (!r) memo.set(key, (r = resolveStored(tx, ref)));
    return r;
  };

  for (const { ref, path, mapping } of located) {
    const r = await resolve(ref);
    if ('problem' in r) {
      errors.push({ path: mapping ? `${path}.prompt` : path, message: r.problem });
      continue;
    }
    const theirs = new Map(r.version.arguments.map((a) => [a.name, a]));
    for (const key of Object.keys(mapping ?? {})) {
      if (!theirs.has(key)) errors.push({ path: `${path}.arguments.${key}`, message: `prompt "${ref.prompt}" has no argument "${key}" (it takes: ${[...theirs.keys()].join(', ') || 'none'})` });
    }
    for (const a of r.version.arguments) {
      if (!a.required || (mapping && Object.hasOwn(mapping, a.name)) || declared.get(a.name)?.required) continue;
      const how = mapping ? `map it in arguments (e.g. {"${a.name}": "{{...}}"}) or declare a required argument "${a.name}"` : `declare a required argument "${a.name}"`;
      errors.push({ path: mapping ? `${path}.arguments` : path, message: `"${formatIncludeRef(ref)}" requires argument "${a.name}": ${how}` });
    }
  }
  if (errors.length) throw invalid(`the version's includes are invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);

  // Cycles, depth and the budget of one rendering (INCLUDE_BUDGET), following what each
  // include resolves to now. Each prompt version is walked once: include graphs share
  // prompts, and walking every path was exponential (8 levels of 6: 6^8 paths, 6.7 s).
  const reached = new Map<string, Reach>();
  const visit = async (ref: IncludeRef, trail: string[], at: string): Promise<Reach | undefined> => {
    const r = await resolve(ref);
    if ('problem' in r) return undefined; // an already stored include that broke since: reported where it is written
    const next = [...trail, ref.prompt];
    const refuse = (message: string) => invalid(message, [{ path: at, message }]);
    if (trail.includes(ref.prompt)) throw refuse(`include cycle: ${next.join(' → ')}`);
    const key = `${ref.prompt}@${r.version.version}`;
    const known = reached.get(key);
    if (known) {
      const back = trail.find((n) => known.names.has(n));
      if (back !== undefined) throw refuse(`include cycle: ${next.join(' → ')} → … → ${back}`);
      if (trail.length - 1 + known.height > MAX_INCLUDE_DEPTH) throw refuse(`includes nest deeper than ${MAX_INCLUDE_DEPTH} levels: ${[...trail, ...known.deepest].slice(0, MAX_INCLUDE_DEPTH + 2).join(' → ')}`);
      return known;
    }
    if (next.length - 1 > MAX_INCLUDE_DEPTH) throw refuse(`includes nest deeper than ${MAX_INCLUDE_DEPTH} levels: ${next.join(' → ')}`);
    if (reached.size >= INCLUDE_BUDGET.prompts) {
      throw refuse(`the includes reach more than ${INCLUDE_BUDGET.prompts} prompt versions (at ${next.join(' → ')}); one rendering may include at most ${INCLUDE_BUDGET.prompts}`);
    }
    // Reserved before walking below, so the count is of versions entered.
    const node: Reach = { height: 1, deepest: [ref.prompt], names: new Set([ref.prompt]) };
    reached.set(key, node);
    for (const child of includeRefsOf(r.version.messages)) {
      const c = await visit(child, next, at);
      if (!c) continue;
      if (1 + c.height > node.height) {
        node.height = 1 + c.height;
        node.deepest = [ref.prompt, ...c.deepest];
      }
      for (const n of c.names) node.names.add(n);
    }
    return node;
  };
  for (const { ref, path } of located) await visit(ref, [name], path);
}

/** A walked prompt version: levels below it (itself counted), a deepest chain, every name it reaches. */
interface Reach {
  height: number;
  deepest: string[];
  names: Set<string>;
}

export interface Dependent {
  prompt: string;
  version: number;
  /** the labels on that version; `latest` when it is its prompt's newest */
  views: string[];
  /** how it includes the prompt, as written: `name`, `name@label`, `name@3` */
  includes: string[];
}

/** Served versions (labelled or latest, of unarchived prompts) that include `name`. */
export async function dependentsOf(tx: Repositories, name: string): Promise<Dependent[]> {
  const out: Dependent[] = [];
  for (const c of await tx.prompts.includeCandidates(name)) {
    if (c.archived || c.prompt === name) continue;
    const refs = includeRefsOf(c.messages).filter((r) => r.prompt === name);
    if (!refs.length) continue;
    out.push({ prompt: c.prompt, version: c.version, views: [...c.labels, ...(c.latest ? [LATEST] : [])], includes: [...new Set(refs.map(formatIncludeRef))] });
  }
  // Byte-wise, like SQL's ordering of names.
  return out.sort((a, b) => (a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : a.version - b.version));
}

/** Refuses to take away a prompt that served prompts include (delete, archive). */
export async function refuseIfIncluded(tx: Repositories, name: string, what: 'deleted' | 'archived' | 'renamed'): Promise<void> {
  const deps = await dependentsOf(tx, name);
  if (!deps.length) return;
  const names = [...new Set(deps.map((d) => d.prompt))];
  const shown = names.slice(0, 20).map((n) => `"${n}"`).join(', ') + (names.length > 20 ? ` and ${names.length - 20} more` : '');
  throw new DomainError('conflict', `prompt "${name}" cannot be ${what}: served prompts include it (${shown}); remove the includes first (GET /admin/v1/prompts/${name}/dependents)`, [
    { path: 'name', message: `included by ${names.join(', ')}` },
  ]);
}

export interface LabelImpact {
  /** prompts served under the label whose rendering changes with the move */
  dependents: string[];
  message: string;
}

/**
 * What moving `label` on these prompts changes beyond them: the prompts served under
 * `label` (any label, for production: the fallback of every view) that include one of
 * them unpinned or pinned to `label`.
 */
export async function labelImpact(tx: Repositories, label: string, moved: string[]): Promise<LabelImpact> {
  const hit = new Set<string>();
  for (const name of moved) {
    for (const d of await dependentsOf(tx, name)) {
      if (moved.includes(d.prompt)) continue;
      const pins = d.includes.map((raw) => parseIncludeRef(raw)!);
      const affected = pins.some((r) => r.version === undefined && (r.label === label || (r.label === undefined && (d.views.includes(label) || label === PRODUCTION))));
      if (affected) hit.add(d.prompt);
    }
  }
  const dependents = [...hit].sort();
  const message = dependents.length ? `this changes ${dependents.length} ${label} prompt${dependents.length === 1 ? '' : 's'} that include${dependents.length === 1 ? 's' : ''} it` : 'no other prompt includes it';
  return { dependents, message };
}
