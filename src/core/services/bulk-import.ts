// Bulk reads and writes for library import/export. The one-prompt services pay a
// transaction commit, a full re-read of the prompt and a change-feed drain per call;
// for 10,000 prompts that dominates. Here many prompts share one transaction (and so
// one fsync), and each prompt is still all-or-nothing: if a batch fails, its prompts
// are retried one transaction each, so exactly the failing prompt is left unwritten.
// Change events are appended in the same transaction as the rows they describe.
import type { Db } from '../../db/create-db.js';
import type { ChangeFeed } from '../change-feed.js';
import { DomainError, invalid, notFound } from '../errors.js';
import type { NewChangeEvent } from '../repo/events-repo.js';
import { toVersion, versionCreateData, versionInclude, type VersionRow } from '../repo/prompts-repo.js';
import { writeTx, type Tx } from '../repo/tx.js';
import { insertRows, setActiveVersions } from './bulk-sql.js';
import type { VersionInput } from '../schemas.js';
import type { Actor, Version } from '../types.js';
import { referencedUris, validateVersion, type StoredResourceInfo } from '../validate-version.js';

export interface PromptState {
  name: string;
  archived: boolean;
  latestVersion: number;
  activeVersion: number | null;
  latest: Version;
  active: Version | null;
  /** every version, oldest first; only when loaded with `history` */
  history?: Version[];
}

export interface BulkWrite {
  name: string;
  /** `create`: the prompt must not exist. `append`: its latest version must still be `expectLatest`. */
  mode: 'create' | 'append';
  expectLatest: number;
  /** appended in order, numbered from expectLatest + 1 */
  versions: VersionInput[];
  /** version number to serve afterwards (may be one of the new ones) */
  activate?: number;
}

export type BulkOutcome =
  | { name: string; ok: true; created: number[]; activated: boolean }
  | { name: string; ok: false; error: unknown };

// Prisma caps bound parameters per query (below SQLite's own limit); an OR of 400
// (promptId, number) pairs already exceeds it, so read in chunks of 100 prompts.
const CHUNK = 100;
const chunks = <T>(xs: T[], n = CHUNK): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** Current state of the named prompts (missing names are simply absent). */
export async function loadPromptStates(db: Db, names: string[], opts: { history?: boolean } = {}): Promise<Map<string, PromptState>> {
  const out = new Map<string, PromptState>();
  for (const part of chunks(names)) {
    const rows = await db.prisma.prompt.findMany({
      where: { name: { in: part } },
      select: { id: true, name: true, archived: true, latestVersion: true, activeVersionId: true },
    });
    if (!rows.length) continue;
    const versionRows = opts.history
      ? await db.prisma.promptVersion.findMany({ where: { promptId: { in: rows.map((r) => r.id) } }, include: versionInclude, orderBy: [{ promptId: 'asc' }, { number: 'asc' }] })
      : await db.prisma.promptVersion.findMany({
          where: {
            OR: [
              ...rows.map((r) => ({ promptId: r.id, number: r.latestVersion })),
              { id: { in: rows.flatMap((r) => (r.activeVersionId ? [r.activeVersionId] : [])) } },
            ],
          },
          include: versionInclude,
          orderBy: [{ promptId: 'asc' }, { number: 'asc' }],
        });
    const byPrompt = new Map<number, { id: number; v: Version }[]>();
    for (const vr of versionRows) {
      const list = byPrompt.get(vr.promptId) ?? [];
      list.push({ id: vr.id, v: toVersion(vr as VersionRow) });
      byPrompt.set(vr.promptId, list);
    }
    for (const r of rows) {
      const vs = byPrompt.get(r.id) ?? [];
      const latest = vs.find((x) => x.v.version === r.latestVersion)?.v;
      if (!latest) continue; // a prompt mid-creation by another writer
      const active = vs.find((x) => x.id === r.activeVersionId)?.v ?? null;
      out.set(r.name, {
        name: r.name, archived: r.archived, latestVersion: r.latestVersion, activeVersion: active?.version ?? null, latest, active,
        ...(opts.history ? { history: vs.map((x) => x.v) } : {}),
      });
    }
  }
  return out;
}

/** What version validation needs to know about the stored resources with these URIs. */
export async function storedResourceInfo(tx: Tx, uris: string[]): Promise<Map<string, StoredResourceInfo>> {
  const out = new Map<string, StoredResourceInfo>();
  for (const part of chunks(uris)) {
    const rows = await tx.resource.findMany({ where: { uri: { in: part } }, select: { id: true, uri: true, mimeType: true, text: true } });
    for (const r of rows) out.set(r.uri, { id: r.id, binary: r.text === null, mimeType: r.mimeType });
  }
  return out;
}

const storedFor = (tx: Tx, items: BulkWrite[]) => storedResourceInfo(tx, [...new Set(items.flatMap((i) => i.versions.flatMap((v) => referencedUris(v))))]);

type PromptRow = { id: number; name: string; archived: boolean; activeVersionId: number | null };

/**
 * Set-based: a handful of statements per batch (prompts, versions, arguments, messages,
 * bindings, events each in one multi-row INSERT) instead of ~10 per prompt. Row data
 * comes from the same versionCreateData the prompt service uses, flattened.
 */
async function writeBatchTx(tx: Tx, batch: BulkWrite[], actor: Actor): Promise<BulkOutcome[]> {
  const stored = await storedFor(tx, batch);
  const resourceIds = new Map([...stored].map(([uri, r]) => [uri, r.id]));
  for (const item of batch) {
    if (item.mode === 'create' && !item.versions.length) throw invalid(`prompt "${item.name}" needs a version`, [{ path: 'messages', message: 'missing' }]);
    for (const v of item.versions) {
      const errors = validateVersion(v, stored);
      if (errors.length) throw invalid(`the version is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
    }
  }
  const now = new Date();
  const creates = batch.filter((i) => i.mode === 'create');
  const appends = batch.filter((i) => i.mode === 'append');
  const prompts = new Map<string, PromptRow>();

  for (const part of chunks(creates)) {
    const taken = await tx.prompt.findMany({ where: { name: { in: part.map((i) => i.name) } }, select: { name: true } });
    if (taken.length) throw new DomainError('conflict', `a prompt named "${taken[0]!.name}" already exists`, [{ path: 'name', message: 'already exists' }]);
  }
  const made = await insertRows<{ id: number; name: string }>(tx, 'Prompt', ['name', 'latestVersion', 'revision', 'createdAt', 'updatedAt'],
    creates.map((i) => [i.name, i.versions.length, 1, now, now]), ['id', 'name']);
  for (const r of made) prompts.set(r.name, { id: Number(r.id), name: r.name, archived: false, activeVersionId: null });
  for (const item of appends) {
    if (!item.versions.length) continue;
    // Conditional bump: fails when someone added a version after the import was planned.
    const bumped = await tx.prompt.updateMany({
      where: { name: item.name, latestVersion: item.expectLatest },
      data: { latestVersion: { increment: item.versions.length }, revision: { increment: 1 } },
    });
    if (!bumped.count) throw new DomainError('precondition_failed', `prompt "${item.name}" was changed by someone else during the import; run it again`);
  }
  for (const part of chunks(appends)) {
    const rows = await tx.prompt.findMany({ where: { name: { in: part.map((i) => i.name) } }, select: { id: true, name: true, archived: true, activeVersionId: true } });
    for (const r of rows) prompts.set(r.name, r);
  }

  const events: NewChangeEvent[] = [];
  const ev = (name: string, action: string, served: boolean, details: Record<string, unknown>) => events.push({ actor: actor.name, action, entity: 'prompt', entityKey: name, served, details });
  const key = (promptId: number, number: number) => `${promptId}:${number}`;
  const pending: { k: string; data: ReturnType<typeof versionCreateData> }[] = [];
  const versionRows: unknown[][] = [];
  for (const item of batch) {
    const p = prompts.get(item.name);
    if (!p) throw notFound(`prompt "${item.name}"`);
    for (const [i, v] of item.versions.entries()) {
      const number = item.expectLatest + i + 1;
      const data = versionCreateData(v, resourceIds);
      versionRows.push([p.id, number, data.title, data.description, data.icons, data.note, actor.name, now]);
      pending.push({ k: key(p.id, number), data });
      ev(item.name, item.mode === 'create' && i === 0 ? 'prompt.created' : 'version.created', false, { version: number });
    }
  }
  const versionIds = new Map<string, number>();
  const vs = await insertRows<{ id: number; promptId: number; number: number }>(tx, 'PromptVersion',
    ['promptId', 'number', 'title', 'description', 'icons', 'note', 'author', 'createdAt'], versionRows, ['id', 'promptId', 'number']);
  for (const r of vs) versionIds.set(key(Number(r.promptId), Number(r.number)), Number(r.id));

  await insertRows(tx, 'PromptArgument', ['versionId', 'position', 'name', 'title', 'description', 'required', 'choices', 'maxLength'],
    pending.flatMap((x) => x.data.arguments.create.map((a) => [versionIds.get(x.k)!, a.position, a.name, a.title, a.description, a.required, a.choices, a.maxLength])));
  const bindings = new Map<string, { uri: string; isTemplate: boolean; resourceId: number | null }>();
  const messageRows = pending.flatMap((x) =>
    x.data.messages.create.map((m) => {
      const versionId = versionIds.get(x.k)!;
      if ('binding' in m && m.binding) bindings.set(`${versionId}:${m.position}`, m.binding.create);
      const c = m as { text?: string | null; data?: Uint8Array | null; mimeType?: string | null };
      return [versionId, m.position, m.role, m.type, c.text ?? null, c.data ?? null, c.mimeType ?? null, m.annotations];
    }),
  );
  const msgs = await insertRows<{ id: number; versionId: number; position: number }>(tx, 'PromptMessage',
    ['versionId', 'position', 'role', 'type', 'text', 'data', 'mimeType', 'annotations'], messageRows, ['id', 'versionId', 'position']);
  await insertRows(tx, 'ResourceBinding', ['messageId', 'uri', 'isTemplate', 'resourceId'], msgs.flatMap((r) => {
    const b = bindings.get(`${Number(r.versionId)}:${Number(r.position)}`);
    return b ? [[Number(r.id), b.uri, b.isTemplate, b.resourceId]] : [];
  }));

  // Activation: existing target versions and previous active numbers, then one UPDATE.
  const targets = batch.filter((i) => i.activate !== undefined);
  const missing = targets.filter((i) => !versionIds.has(key(prompts.get(i.name)!.id, i.activate!)));
  for (const part of chunks(missing)) {
    const rows = await tx.promptVersion.findMany({ where: { OR: part.map((i) => ({ promptId: prompts.get(i.name)!.id, number: i.activate! })) }, select: { id: true, promptId: true, number: true } });
    for (const r of rows) versionIds.set(key(r.promptId, r.number), r.id);
  }
  const prevIds = targets.flatMap((i) => prompts.get(i.name)!.activeVersionId ?? []);
  const prevNumbers = new Map<number, number>();
  for (const part of chunks(prevIds)) {
    for (const r of await tx.promptVersion.findMany({ where: { id: { in: part } }, select: { id: true, number: true } })) prevNumbers.set(r.id, r.number);
  }
  const activated = new Set<string>();
  const pointers: { promptId: number; versionId: number }[] = [];
  for (const item of targets) {
    const p = prompts.get(item.name)!;
    const id = versionIds.get(key(p.id, item.activate!));
    if (id === undefined) throw new DomainError('validation', `prompt "${item.name}" has no version ${item.activate}`, [{ path: 'version', message: `no version ${item.activate}` }]);
    if (id === p.activeVersionId) continue;
    pointers.push({ promptId: p.id, versionId: id });
    const prev = p.activeVersionId ? (prevNumbers.get(p.activeVersionId) ?? null) : null;
    ev(item.name, prev !== null && prev > item.activate! ? 'prompt.rolled_back' : 'prompt.activated', !p.archived, { version: item.activate, previous: prev });
    activated.add(item.name);
  }
  await setActiveVersions(tx, pointers, now);

  await insertRows(tx, 'ChangeEvent', ['at', 'actor', 'action', 'entity', 'entityKey', 'served', 'details'],
    events.map((e) => [now, e.actor, e.action, e.entity, e.entityKey, e.served ?? false, e.details ? JSON.stringify(e.details) : null]));
  return batch.map((item) => ({
    name: item.name, ok: true, activated: activated.has(item.name),
    created: item.versions.map((_, i) => item.expectLatest + i + 1),
  }));
}

const writeBatch = (db: Db, batch: BulkWrite[], actor: Actor) => writeTx(db, (tx) => writeBatchTx(tx, batch, actor));

export function createBulkImport({ db, feed }: { db: Db; feed: ChangeFeed }) {
  return {
    load: (names: string[], opts: { history?: boolean } = {}) => loadPromptStates(db, names, opts),
    resourceInfo: (uris: string[]) => storedResourceInfo(db.prisma, uris),

    /** Writes in batches; returns one outcome per item, in order. Never throws for one bad item. */
    async apply(items: BulkWrite[], actor: Actor, opts: { batchSize?: number; onProgress?: (done: number, total: number) => void } = {}): Promise<BulkOutcome[]> {
      const size = Math.max(1, opts.batchSize ?? 250);
      const results: BulkOutcome[] = [];
      try {
        for (let i = 0; i < items.length; i += size) {
          const batch = items.slice(i, i + size);
          try {
            results.push(...(await writeBatch(db, batch, actor)));
          } catch (e) {
            if (batch.length === 1) results.push({ name: batch[0]!.name, ok: false, error: e });
            else {
              // Find the culprit(s): one transaction per prompt for this batch only.
              for (const item of batch) {
                try {
                  results.push(...(await writeBatch(db, [item], actor)));
                } catch (err) {
                  results.push({ name: item.name, ok: false, error: err });
                }
              }
            }
          }
          opts.onProgress?.(Math.min(i + size, items.length), items.length);
        }
      } finally {
        // One drain for the whole import: local listeners see the burst at once.
        await feed.poke();
      }
      return results;
    },
  };
}

export type BulkImport = ReturnType<typeof createBulkImport>;
