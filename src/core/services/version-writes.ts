// The one write path for versions. Creating a prompt, adding a version, activating or
// rolling back (the REST API and MCP through the prompt service) and importing a
// library (thousands of prompts per transaction) all run writeVersions, so the rules
// are written once: names are unique, every version validates against the stored
// resources, numbers follow the latest without gaps, a stale expectation is a 412,
// activating (moving the production label, or the item's label) an older version than
// the served one is a rollback, and every change appends its events in the same transaction.
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { defaultLabelPolicy, type LabelPolicy } from '../label-policy.js';
import type { NewChangeEvent, NewVersion, PromptHead, Repositories } from '../ports.js';
import { LATEST, PRODUCTION, type VersionInput } from '../schemas.js';
import type { Actor } from '../types.js';
import { referencedUris, validateVersion } from '../validate-version.js';
import { moveEvent, writeLabelMoves, type LabelMove } from './label-moves.js';
import { checkIncludes } from './include-checks.js';
import { forcedDetails } from '../checks/move-gate.js';

export { activationAction } from './label-moves.js';

export interface VersionWrite {
  name: string;
  /** `create`: the prompt must not exist yet. `append`: it must exist. */
  mode: 'create' | 'append';
  /** appended in order after the prompt's latest version */
  versions: VersionInput[];
  /**
   * `append` only: the prompt must still be as read. `latest`: its latest version
   * number (an import plan); `revision`: its revision (an If-Match ETag).
   */
  expect?: { latest?: number; revision?: number };
  /** the version to serve afterwards: a number, or `newest` for the last one written here */
  activate?: number | 'newest';
  /** the label `activate` moves (default `production`, through the `active` alias) */
  label?: string;
  /** more labels to point, label → version number (an import's file labels); `label.set` events */
  labels?: Record<string, number>;
  /** an admin overrides failing checks of a protected label move (recorded in its event) */
  force?: boolean;
}

export interface VersionWriteResult {
  name: string;
  /** numbers of the versions written, in order */
  created: number[];
  /** whether what is served changed to the requested version */
  activated: boolean;
  /** the prompt's revision (its ETag) as this write leaves it */
  revision: number;
}

export const nameTaken = (name: string) => conflict(`a prompt named "${name}" already exists`, [{ path: 'name', message: 'already exists' }]);

/** A taken name's conflict; a soft-deleted prompt keeps its name until it is purged. */
export async function nameConflict(tx: Repositories, name: string): Promise<DomainError> {
  if (await tx.prompts.head(name)) return nameTaken(name);
  return conflict(`a deleted prompt named "${name}" still holds the name: restore it (POST /admin/v1/prompts/${name}/restore) or wait until it is purged`, [
    { path: 'name', message: 'held by a deleted prompt' },
  ]);
}

export const noSuchVersion = (name: string, number: number) =>
  new DomainError('validation', `prompt "${name}" has no version ${number}`, [{ path: 'version', message: `no version ${number}` }]);

function stale(name: string, expect: VersionWrite['expect']): DomainError {
  return new DomainError(
    'precondition_failed',
    expect?.revision !== undefined
      ? `prompt "${name}" was changed by someone else since you read it; reload and try again`
      : `prompt "${name}" was changed by someone else during the import; run it again`,
  );
}

/**
 * Writes the items inside the caller's write transaction. Throws the first broken
 * rule as a DomainError; the caller's transaction then writes nothing.
 */
export async function writeVersions(tx: Repositories, items: VersionWrite[], actor: Actor, at = new Date(), policy: LabelPolicy = defaultLabelPolicy): Promise<VersionWriteResult[]> {
  for (const item of items) {
    if (item.activate !== undefined) policy.authorizeLabelMove(actor, item.label ?? PRODUCTION);
    for (const l of Object.keys(item.labels ?? {})) policy.authorizeLabelMove(actor, l);
  }
  const creates = items.filter((i) => i.mode === 'create');
  const appends = items.filter((i) => i.mode === 'append');
  for (const item of creates) {
    if (!item.versions.length) throw invalid(`prompt "${item.name}" needs a version`, [{ path: 'messages', message: 'missing' }]);
  }
  const taken = await tx.prompts.takenNames(creates.map((i) => i.name));
  if (taken.length) throw await nameConflict(tx, taken[0]!);

  // Numbering: new prompts start at 1; appends raise latestVersion first, in one
  // conditional UPDATE, so two writers can neither take the same number nor both
  // pass the same expectation.
  const ids = await tx.prompts.insertPrompts(creates.map((i) => ({ name: i.name, latestVersion: i.versions.length, latest: i.versions.at(-1) })), at);
  // The bump returns the head it leaves: appends with versions need no read of it.
  const heads = new Map<string, PromptHead>();
  for (const item of appends) {
    if (!item.versions.length) continue;
    const bumped = await tx.prompts.bumpLatest(item.name, item.versions.length, item.expect ?? {}, at);
    if (!bumped) {
      if (!(await tx.prompts.head(item.name))) throw notFound(`prompt "${item.name}"`);
      throw stale(item.name, item.expect);
    }
    heads.set(item.name, bumped);
  }
  // Validated after numbering, inside the same transaction: a refused version rolls
  // its number back with it, so numbering stays contiguous (test/core/prompt-service.test.ts).
  const stored = await tx.resources.info([...new Set(items.flatMap((i) => i.versions.flatMap((v) => referencedUris(v))))]);
  for (const item of items) {
    for (const v of item.versions) {
      const errors = validateVersion(v, stored);
      if (errors.length) throw invalid(`the version is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
    }
  }

  const unread = appends.filter((i) => !heads.has(i.name)).map((i) => i.name);
  if (unread.length) for (const [name, h] of await tx.prompts.heads(unread)) heads.set(name, h);
  const headOf = (item: VersionWrite): PromptHead => {
    if (item.mode === 'create') return { id: ids.get(item.name)!, name: item.name, archived: false, latestVersion: item.versions.length, activeVersion: null, revision: 1 };
    const h = heads.get(item.name);
    if (!h) throw notFound(`prompt "${item.name}"`);
    return h;
  };

  const events: NewChangeEvent[] = [];
  const event = (name: string, action: string, served: boolean, details: Record<string, unknown>) => events.push({ actor: actor.name, action, entity: 'prompt', entityKey: name, served, details });
  const versions: NewVersion[] = [];
  const plans = items.map((item) => {
    const head = headOf(item);
    const first = head.latestVersion - item.versions.length + 1;
    const created = item.versions.map((_, i) => first + i);
    item.versions.forEach((input, i) => {
      versions.push({ promptId: head.id, name: item.name, number: created[i]!, input, author: actor.name });
      // A new version changes the `latest` view only (served there unless archived).
      event(item.name, item.mode === 'create' && i === 0 ? 'prompt.created' : 'version.created', !head.archived, { version: created[i], labels: [LATEST] });
    });
    const target = item.activate === 'newest' ? created.at(-1) : item.activate;
    return { item, head, created, target };
  });
  // Label targets: `activate` (the main label, an activation) and any extra labels.
  const targets = plans.map((p) => [
    ...(p.target !== undefined ? [{ label: p.item.label ?? PRODUCTION, number: p.target, main: true }] : []),
    ...Object.entries(p.item.labels ?? {}).map(([label, number]) => ({ label, number, main: false })),
  ]);
  // Without a label target there is no move, so the events are final now: they go
  // with the versions (on PostgreSQL the same statement; the common REST write).
  const eventsNow = targets.every((t) => !t.length);
  await tx.prompts.insertVersions(versions, new Map([...stored].map(([uri, r]) => [uri, r.id])), at, eventsNow ? events : undefined);

  // Targets that were not written here must already exist.
  const older = plans.flatMap((p, i) => targets[i]!.filter((t) => !p.created.includes(t.number)).map((t) => ({ promptId: p.head.id, number: t.number })));
  const existing = await tx.prompts.existingVersions(older);
  // Where other labels than production (whose pointer the head mirrors) point now.
  const others = plans.filter((p, i) => targets[i]!.some((t) => t.label !== PRODUCTION));
  const current = others.length ? await tx.labels.ofPrompts(others.map((p) => p.head.id)) : new Map<number, { label: string; version: number }[]>();
  const moves: LabelMove[] = [];
  const moveEvents: NewChangeEvent[] = [];
  const forces: (boolean | undefined)[] = [];
  const activated = new Set<VersionWrite>();
  plans.forEach(({ item, head, created }, i) => {
    for (const t of targets[i]!) {
      if (!created.includes(t.number) && !existing.has(`${head.id}:${t.number}`)) throw noSuchVersion(item.name, t.number);
      const from = t.label === PRODUCTION ? head.activeVersion : (current.get(head.id)?.find((l) => l.label === t.label)?.version ?? null);
      if (from === t.number || moves.some((m) => m.head === head && m.label === t.label)) continue;
      const move: LabelMove = { head, label: t.label, from, to: t.number };
      moves.push(move);
      forces.push(item.force);
      moveEvents.push(moveEvent(actor, move, t.main ? 'alias' : 'label'));
      events.push(moveEvents.at(-1)!);
      if (t.main) activated.add(item);
    }
  });
  await writeLabelMoves(tx, moves, at);
  // After the versions and labels are stored: prompts written together may include each other.
  for (const item of items) for (const v of item.versions) await checkIncludes(tx, item.name, v);
  // The gate: callers pass a policy whose gate answers what the checks found before the
  // transaction (checks/gated-version-write.ts); called here so earlier rules' errors come first.
  const written = new Map<string, VersionInput>(plans.flatMap((p) => p.created.map((n, k) => [`${p.head.id}:${n}`, p.item.versions[k]!] as const)));
  const gated = moves.map((m, i) => ({ prompt: m.head.name, label: m.label, to: m.to, force: forces[i], input: written.get(`${m.head.id}:${m.to}`) }));
  const forced = (await policy.gate?.(tx, gated, policy.protectedLabels)) ?? [];
  moveEvents.forEach((e, i) => Object.assign(e.details!, forcedDetails(forced, i)));
  if (!eventsNow) await tx.events.append(events, at);
  // Label moves bump the revision once more per prompt (labels-repo.ts).
  const moved = new Set(moves.filter((m) => m.from !== m.to).map((m) => m.head.id));
  return plans.map(({ item, head, created }) => ({ name: item.name, created, activated: activated.has(item), revision: head.revision + (moved.has(head.id) ? 1 : 0) }));
}
