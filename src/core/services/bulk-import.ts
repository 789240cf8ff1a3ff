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

// SQLite allows 32,766 bound variables; stay far below for both providers.
const CHUNK = 400;
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

async function writeOne(tx: Tx, item: BulkWrite, stored: Map<string, StoredResourceInfo>, actor: Actor, events: NewChangeEvent[]) {
  const ev = (action: string, served: boolean, details: Record<string, unknown>): NewChangeEvent => ({
    actor: actor.name, action, entity: 'prompt', entityKey: item.name, served, details,
  });
  const n = item.versions.length;
  let prompt: { id: number; archived: boolean; activeVersionId: number | null };
  if (item.mode === 'create') {
    if (await tx.prompt.findUnique({ where: { name: item.name }, select: { id: true } })) {
      throw new DomainError('conflict', `a prompt named "${item.name}" already exists`, [{ path: 'name', message: 'already exists' }]);
    }
    if (!n) throw invalid('a new prompt needs a version', [{ path: 'messages', message: 'missing' }]);
    prompt = await tx.prompt.create({ data: { name: item.name, latestVersion: n }, select: { id: true, archived: true, activeVersionId: true } });
  } else {
    // Conditional bump: fails when someone added a version after the import was planned.
    const bumped = await tx.prompt.updateMany({
      where: { name: item.name, latestVersion: item.expectLatest },
      data: { latestVersion: { increment: n }, revision: { increment: 1 } },
    });
    if (!bumped.count) {
      if (!(await tx.prompt.findUnique({ where: { name: item.name }, select: { id: true } }))) throw notFound(`prompt "${item.name}"`);
      throw new DomainError('precondition_failed', `prompt "${item.name}" was changed by someone else during the import; run it again`);
    }
    prompt = (await tx.prompt.findUnique({ where: { name: item.name }, select: { id: true, archived: true, activeVersionId: true } }))!;
  }

  const ids = new Map([...stored].map(([uri, r]) => [uri, r.id]));
  const numbers = new Map<number, number>();
  const created: number[] = [];
  for (const [i, v] of item.versions.entries()) {
    const errors = validateVersion(v, stored);
    if (errors.length) throw invalid(`the version is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
    const number = item.expectLatest + i + 1;
    const row = await tx.promptVersion.create({ data: { promptId: prompt.id, number, author: actor.name, ...versionCreateData(v, ids) }, select: { id: true } });
    numbers.set(number, row.id);
    created.push(number);
    events.push(ev(item.mode === 'create' && i === 0 ? 'prompt.created' : 'version.created', false, { version: number }));
  }

  let activated = false;
  if (item.activate !== undefined) {
    const target = item.activate;
    const id = numbers.get(target)
      ?? (await tx.promptVersion.findUnique({ where: { promptId_number: { promptId: prompt.id, number: target } }, select: { id: true } }))?.id;
    if (id === undefined) throw new DomainError('validation', `prompt "${item.name}" has no version ${target}`, [{ path: 'version', message: `no version ${target}` }]);
    if (id !== prompt.activeVersionId) {
      await tx.prompt.update({ where: { id: prompt.id }, data: { activeVersionId: id, revision: { increment: 1 } } });
      const prev = prompt.activeVersionId
        ? (await tx.promptVersion.findUnique({ where: { id: prompt.activeVersionId }, select: { number: true } }))?.number ?? null
        : null;
      events.push(ev(prev !== null && prev > target ? 'prompt.rolled_back' : 'prompt.activated', !prompt.archived, { version: target, previous: prev }));
      activated = true;
    }
  }
  return { created, activated };
}

async function writeBatch(db: Db, batch: BulkWrite[], actor: Actor): Promise<BulkOutcome[]> {
  return writeTx(db, async (tx) => {
    const stored = await storedFor(tx, batch);
    const events: NewChangeEvent[] = [];
    const out: BulkOutcome[] = [];
    for (const item of batch) out.push({ name: item.name, ok: true, ...(await writeOne(tx, item, stored, actor, events)) });
    for (const part of chunks(events, 200)) {
      await tx.changeEvent.createMany({
        data: part.map((e) => ({ actor: e.actor, action: e.action, entity: e.entity, entityKey: e.entityKey, served: e.served ?? false, details: e.details ? JSON.stringify(e.details) : null })),
      });
    }
    return out;
  });
}

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
