// Prompt, version, argument, message and binding rows ↔ domain objects.
import { Prisma, type Tx } from '../prisma.js';
import { changeMarker, countPrompts, keyOf, laterOf, pageSummaries, promptPageIds, scanCount, type ScanStop } from './prompt-list.js';
import { usageRepository } from './usage-repo.js';
import { refreshSearchText, renamedSearchText, searchTextOf } from './prompt-search.js';
import type { Dialect } from '../dialect.js';
import { chunks, hasPair, insertRows, pairsWhere } from './bulk-sql.js';
import type { Argument, Content, Message, PromptDetail, PromptSummary, Version, VersionSummary } from '../../core/types.js';
import type { TestCase, VersionInput } from '../../core/schemas.js';
import type { NewChangeEvent, NewVersion, PromptHead, PromptListFilter, PromptListKey, PromptCountOptions, PromptListPage, PromptRepository, PromptSort, PromptState } from '../../core/ports.js';
import { isUriTemplate } from '../../core/uri-template.js';
import { prismaSql, type RawSql } from '../raw-sql.js';
import { EVENT_COLUMNS, eventRow } from './events-repo.js';
import { ARGUMENT_COLUMNS, BINDING_COLUMNS, MESSAGE_COLUMNS, VERSION_COLUMNS, argumentRow, bindingOf, messageRow, versionBatch, versionRow } from './version-batch.js';

export const versionInclude = {
  arguments: { orderBy: { position: 'asc' as const } },
  messages: { orderBy: { position: 'asc' as const }, include: { binding: true } },
};

export type VersionRow = NonNullable<Awaited<ReturnType<Tx['promptVersion']['findFirst']>>> & {
  arguments: Awaited<ReturnType<Tx['promptArgument']['findMany']>>;
  messages: (Awaited<ReturnType<Tx['promptMessage']['findMany']>>[number] & {
    binding: Awaited<ReturnType<Tx['resourceBinding']['findFirst']>>;
  })[];
};

const parseJson = <T>(s: string | null): T | null => (s == null ? null : (JSON.parse(s) as T));
const allowOf = (b: { allow?: string | null } | null) => (b?.allow ? { allow: JSON.parse(b.allow) as string[] } : {});

export function toVersion(row: VersionRow): Version {
  return {
    version: row.number,
    title: row.title,
    description: row.description,
    icons: parseJson(row.icons),
    note: row.note,
    author: row.author,
    createdAt: row.createdAt,
    arguments: row.arguments.map(
      (a): Argument => ({
        name: a.name,
        type: (a.type || 'string') as Argument['type'],
        default: parseJson<Argument['default']>(a.defaultValue ?? null),
        title: a.title,
        description: a.description,
        required: a.required,
        choices: parseJson<string[]>(a.choices),
        maxLength: a.maxLength,
      }),
    ),
    messages: row.messages.map((m): Message => {
      const annotations = parseJson<Record<string, unknown>>(m.annotations) ?? undefined;
      const uri = m.binding?.uri ?? '';
      let content: Content;
      switch (m.type) {
        case 'text':
          content = { type: 'text', text: m.text ?? '' };
          break;
        case 'image':
        case 'audio':
          content = m.binding
            ? { type: m.type, resourceUri: uri }
            : { type: m.type, data: Buffer.from(m.data ?? new Uint8Array()).toString('base64'), mimeType: m.mimeType ?? 'application/octet-stream' };
          break;
        case 'resource':
          content = { type: 'resource', uri, ...allowOf(m.binding) };
          break;
        case 'include':
          content = {
            type: 'include',
            prompt: m.includePrompt ?? '',
            ...(m.includeLabel != null ? { label: m.includeLabel } : {}),
            ...(m.includeVersion != null ? { version: m.includeVersion } : {}),
            ...(m.includeArguments != null ? { arguments: JSON.parse(m.includeArguments) as Record<string, string> } : {}),
          };
          break;
        default:
          content = { type: 'resource_link', uri, ...allowOf(m.binding) };
      }
      if (annotations && content.type !== 'include') (content as { annotations?: unknown }).annotations = annotations;
      return { role: m.role as Message['role'], content };
    }),
    // The served catalog's documents leave test cases out (nothing served runs them).
    tests: parseJson<TestCase[]>(row.testCases ?? null) ?? [],
  };
}

// Text includes are always written `{{>` (core/template.ts refuses other spellings), so a
// substring finds every text message that may include a prompt.
const TEXT_INCLUDE = '{{>';

/** Nested-create data for a version's rows. `resourceIds` maps literal URIs to stored resources. */
export function versionCreateData(input: VersionInput, resourceIds: Map<string, number>) {
  return {
    title: input.title ?? null,
    description: input.description ?? null,
    icons: input.icons ? JSON.stringify(input.icons) : null,
    note: input.note ?? null,
    testCases: input.tests?.length ? JSON.stringify(input.tests) : null,
    arguments: {
      create: input.arguments.map((a, position) => ({
        position,
        name: a.name,
        title: a.title ?? null,
        description: a.description ?? null,
        required: a.required,
        choices: a.choices ? JSON.stringify(a.choices) : null,
        maxLength: a.maxLength ?? null,
        type: a.type ?? 'string',
        defaultValue: a.default != null ? JSON.stringify(a.default) : null,
      })),
    },
    messages: {
      create: input.messages.map((m, position) => {
        const c = m.content;
        const base = {
          position,
          role: m.role,
          type: c.type,
          annotations: c.type !== 'include' && c.annotations ? JSON.stringify(c.annotations) : null,
        };
        if (c.type === 'include') {
          return {
            ...base,
            includePrompt: c.prompt,
            includeLabel: c.label ?? null,
            includeVersion: c.version ?? null,
            includeArguments: c.arguments ? JSON.stringify(c.arguments) : null,
            mayInclude: true,
          };
        }
        const bindingUri = 'resourceUri' in c ? c.resourceUri : 'uri' in c ? c.uri : undefined;
        if (c.type === 'text') return { ...base, text: c.text, mayInclude: c.text.includes(TEXT_INCLUDE) };
        if ('data' in c) return { ...base, data: Buffer.from(c.data, 'base64'), mimeType: c.mimeType };
        const templated = isUriTemplate(bindingUri!);
        return {
          ...base,
          binding: {
            create: {
              uri: bindingUri!,
              isTemplate: templated,
              resourceId: templated ? null : (resourceIds.get(bindingUri!) ?? null),
              allow: 'allow' in c && c.allow ? JSON.stringify(c.allow) : null,
            },
          },
        };
      }),
    },
  };
}

/** Prompt.tags is a JSON array as text (schema.prisma). */
export const parseTags = (t: string): string[] => (t === '[]' ? [] : (JSON.parse(t) as string[]));

type PromptRow = NonNullable<Awaited<ReturnType<Tx['prompt']['findFirst']>>>;

export function toSummary(p: PromptRow & { activeVersion: { number: number } | null }, latest: { title: string | null; description: string | null } | null, lastUsedAt: Date | null = null): PromptSummary {
  return {
    name: p.name,
    title: latest?.title ?? null,
    description: latest?.description ?? null,
    activeVersion: p.activeVersion?.number ?? null,
    latestVersion: p.latestVersion,
    archived: p.archived,
    updatedAt: p.updatedAt,
    tags: parseTags(p.tags),
    ...(p.deletedAt ? { deletedAt: p.deletedAt, deletedBy: p.deletedBy } : {}),
    lastUsedAt,
  };
}

/** Soft-deleted prompts are absent from every read path except the bin's. */
const live = { deletedAt: null };

export async function findPromptDetail(tx: Tx, name: string): Promise<PromptDetail | null> {
  const p = await tx.prompt.findFirst({ where: { name, ...live }, include: { activeVersion: { include: versionInclude } } });
  if (!p) return null;
  const latest = await tx.promptVersion.findFirst({ where: { promptId: p.id, number: p.latestVersion }, include: versionInclude });
  if (!latest) return null;
  const labels = await tx.promptLabel.findMany({ where: { promptId: p.id }, orderBy: { name: 'asc' }, select: { name: true } });
  return {
    name: p.name,
    labels: labels.map((l) => l.name),
    tags: parseTags(p.tags),
    archived: p.archived,
    activeVersion: p.activeVersion?.number ?? null,
    latestVersion: p.latestVersion,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    revision: p.revision,
    active: p.activeVersion ? toVersion(p.activeVersion as VersionRow) : null,
    latest: toVersion(latest as VersionRow),
  };
}

export async function findVersion(tx: Tx, name: string, number: number): Promise<Version | null> {
  const v = await tx.promptVersion.findFirst({ where: { prompt: { name, ...live }, number }, include: versionInclude });
  return v ? toVersion(v as VersionRow) : null;
}

/**
 * One page of the admin list: ids from the shared WHERE (prompt-list.ts), then their
 * summaries in that order. With `count`, a full page (`limit` rows) is counted too, at
 * the same time as its summaries are read (countPrompts; the caller would count it next).
 */
export async function listPromptSummaries(
  tx: Tx, d: Dialect, f: PromptListFilter,
  opts: { sort: PromptSort; after?: PromptListKey; limit: number; scanLimit?: number; count?: PromptCountOptions },
): Promise<PromptListPage> {
  // A first page counted with the change marker: a scan that stops hands over the count
  // of its stretch where it reads it anyway (the one-walk scan; ScanStop.stretch).
  const stretch = opts.count?.marker === true && opts.after === undefined;
  const { ids, stoppedAfter } = await promptPageIds(tx, d, f, { ...opts, stretch });
  const [rows, stopped, counted] = await Promise.all([
    pageSummaries(tx, ids, opts.sort, f.recentUse),
    stoppedAfter === undefined ? undefined : stopKeyOf(tx, stoppedAfter, opts.sort, f.recentUse),
    opts.count && ids.length >= opts.limit
      ? countPrompts(tx, d, f, opts.count)
      : stoppedAfter?.stretch && { ...scanCount(stoppedAfter.stretch.matches, true, opts.count?.upTo), marker: stoppedAfter.stretch.marker },
  ]);
  return { rows, ...(stopped ? { stoppedAfter: stopped } : {}), ...(counted ? { counted } : {}) };
}

/** Where a list in this sort order continues after the last row a bounded scan read. */
async function stopKeyOf(tx: Tx, stop: ScanStop, sort: PromptSort, recentUse?: ReadonlyMap<string, Date>): Promise<PromptListPage['stoppedAfter']> {
  // The scan had its sort keys at hand (the one-walk scan); lastUsed needs the usage rows.
  if (stop.name !== undefined && stop.updatedAt !== undefined && sort !== 'lastUsed') {
    return { name: stop.name, key: keyOf(sort, { id: stop.id, name: stop.name, updatedAt: stop.updatedAt }, null) };
  }
  return listKeyOf(tx, stop.id, sort, recentUse);
}

/** Where a list in this sort order continues after prompt `id`. */
async function listKeyOf(tx: Tx, id: number, sort: PromptSort, recentUse?: ReadonlyMap<string, Date>): Promise<PromptListPage['stoppedAfter']> {
  const p = await tx.prompt.findUnique({ where: { id }, select: { id: true, name: true, updatedAt: true } });
  if (!p) return undefined;
  const lastUsedAt = sort === 'lastUsed' ? laterOf((await usageRepository(tx).lastServed([p.id])).get(p.id) ?? null, recentUse?.get(p.name)) : null;
  return { name: p.name, key: keyOf(sort, p, lastUsedAt) };
}

const headSelect = { id: true, name: true, archived: true, latestVersion: true, revision: true, activeVersion: { select: { number: true } } } as const;
const deletedHeadSelect = { ...headSelect, deletedAt: true, deletedBy: true } as const;
type HeadRow = { id: number; name: string; archived: boolean; latestVersion: number; revision: number; activeVersion: { number: number } | null };
const toHead = (r: HeadRow): PromptHead => ({ id: r.id, name: r.name, archived: r.archived, latestVersion: r.latestVersion, revision: r.revision, activeVersion: r.activeVersion?.number ?? null });

/** Current state of the named prompts (missing names are simply absent). */
async function loadStates(tx: Tx, names: string[], opts: { history?: boolean } = {}): Promise<Map<string, PromptState>> {
  const out = new Map<string, PromptState>();
  // The names stored first, in one flat query per 500: an import of new prompts asks
  // for thousands of unknown names, and each chunk below costs three queries (Prisma
  // runs the nested label and version loads even for no rows).
  const known: string[] = [];
  for (const part of chunks(names, 500)) {
    for (const r of await tx.prompt.findMany({ where: { name: { in: part }, ...live }, select: { name: true } })) known.push(r.name);
  }
  for (const part of chunks(known)) {
    const rows = await tx.prompt.findMany({
      where: { name: { in: part }, ...live },
      select: { id: true, name: true, archived: true, latestVersion: true, activeVersionId: true, labels: { select: { name: true, version: { select: { number: true } } } } },
    });
    if (!rows.length) continue;
    const versionRows = opts.history
      ? await tx.promptVersion.findMany({ where: { promptId: { in: rows.map((r) => r.id) } }, include: versionInclude, orderBy: [{ promptId: 'asc' }, { number: 'asc' }] })
      : await tx.promptVersion.findMany({
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
        labels: Object.fromEntries(r.labels.map((l) => [l.name, l.version.number]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1))),
        ...(opts.history ? { history: vs.map((x) => x.v) } : {}),
      });
    }
  }
  return out;
}

const key = (promptId: number, number: number) => `${promptId}:${number}`;

/**
 * Set-based version writes: a handful of multi-row INSERTs (versions, arguments,
 * messages, bindings) whatever the number of versions, for one prompt or ten thousand;
 * where the dialect allows, one statement (version-batch.ts).
 */
async function insertVersions(
  tx: Tx, sql: RawSql, dialect: Dialect, versions: NewVersion[], resourceIds: Map<string, number>, at: Date, events: NewChangeEvent[] = [],
  searched: ReadonlySet<number> = new Set(), written: WrittenVersions = new Map(),
): Promise<void> {
  if (!versions.length) return void (await insertRows(sql, 'ChangeEvent', EVENT_COLUMNS, events.map((e) => eventRow(e, at))));
  const pending = versions.map((v) => ({ k: key(v.promptId, v.number), data: versionCreateData(v.input, resourceIds) }));
  const remember = (rows: { id: unknown; promptId: unknown; number: unknown }[]) => {
    for (const r of rows) written.set(key(Number(r.promptId), Number(r.number)), Number(r.id));
  };
  if (dialect.sql.writableCte && versions.every((v) => v.name !== undefined)) {
    const batch = versionBatch(versions, pending.map((p) => p.data), at, events);
    if (batch) return void remember(await sql.query<{ id: unknown; promptId: unknown; number: unknown }>(batch));
  }
  const rows = await insertRows<{ id: number; promptId: number; number: number }>(sql, 'PromptVersion', VERSION_COLUMNS,
    versions.map((v, i) => versionRow(v, pending[i]!.data, at)), ['id', 'promptId', 'number']);
  remember(rows);
  const versionIds = new Map(rows.map((r) => [key(Number(r.promptId), Number(r.number)), Number(r.id)]));
  await insertRows(sql, 'PromptArgument', ARGUMENT_COLUMNS, pending.flatMap((x) => x.data.arguments.create.map((a) => [versionIds.get(x.k)!, ...argumentRow(a)])));
  const bindings = new Map<string, { uri: string; isTemplate: boolean; resourceId: number | null; allow: string | null }>();
  const messageRows = pending.flatMap((x) =>
    x.data.messages.create.map((m) => {
      const versionId = versionIds.get(x.k)!;
      const b = bindingOf(m);
      if (b) bindings.set(`${versionId}:${m.position}`, b);
      return [versionId, ...messageRow(m)];
    }),
  );
  const msgs = await insertRows<{ id: number; versionId: number; position: number }>(sql, 'PromptMessage', MESSAGE_COLUMNS, messageRows, ['id', 'versionId', 'position']);
  await insertRows(sql, 'ResourceBinding', BINDING_COLUMNS, msgs.flatMap((r) => {
    const b = bindings.get(`${Number(r.versionId)}:${Number(r.position)}`);
    return b ? [[Number(r.id), b.uri, b.isTemplate, b.resourceId, b.allow]] : [];
  }));
  // New prompts got their search text in their INSERT (insertPrompts): not written again.
  await refreshSearchText(tx, sql, searched.size ? versions.filter((v) => !searched.has(v.promptId)) : versions);
  await insertRows(sql, 'ChangeEvent', EVENT_COLUMNS, events.map((e) => eventRow(e, at)));
}

/**
 * The version as findVersion() would read it right after insertVersions(): the same
 * row data through the same mapping (toVersion), so a write answers without a read.
 */
export function storedVersion(v: NewVersion, at: Date): Version {
  const d = versionCreateData(v.input, new Map());
  return toVersion({
    id: 0, promptId: v.promptId, number: v.number, title: d.title, description: d.description, icons: d.icons, note: d.note, author: v.author, createdAt: at, testCases: d.testCases,
    arguments: d.arguments.create.map((a) => ({ id: 0, versionId: 0, ...a })),
    messages: d.messages.create.map((m) => {
      const c = m as { text?: string | null; data?: Uint8Array | null; mimeType?: string | null; includePrompt?: string | null; includeLabel?: string | null; includeVersion?: number | null; includeArguments?: string | null };
      const b = 'binding' in m && m.binding ? m.binding.create : null;
      return {
        id: 0, versionId: 0, position: m.position, role: m.role, type: m.type, annotations: m.annotations,
        text: c.text ?? null, data: c.data ?? null, mimeType: c.mimeType ?? null,
        includePrompt: c.includePrompt ?? null, includeLabel: c.includeLabel ?? null, includeVersion: c.includeVersion ?? null, includeArguments: c.includeArguments ?? null,
        binding: b ? { id: 0, messageId: 0, uri: b.uri, isTemplate: b.isTemplate, resourceId: b.resourceId, allow: b.allow } : null,
      };
    }),
  } as unknown as VersionRow);
}

/**
 * Ids of the versions one write transaction inserted, by `promptId:number`: a label move
 * later in the same transaction (labels-repo.ts) finds them here instead of reading them
 * back (on PostgreSQL 3 queries and ~100 ms of a 10,000-prompt import).
 */
export type WrittenVersions = Map<string, number>;

/**
 * `sql`: how raw SQL runs (Db.writeSql inside a write transaction); `written`: the
 * transaction's version ids, shared with its label repository.
 */
export function promptRepository(tx: Tx, dialect: Dialect, sql: RawSql = prismaSql(tx), written?: WrittenVersions): PromptRepository {
  // Prompts the last insertPrompts wrote with their search text: the insertVersions that
  // follows it (writeVersions) need not write it again. Both reset it, so it never
  // outlives that one write.
  const searched = new Set<number>();
  return {
    async head(name) {
      const r = await tx.prompt.findFirst({ where: { name, ...live }, select: headSelect });
      return r ? toHead(r) : null;
    },
    async heads(names) {
      const out = new Map<string, PromptHead>();
      for (const part of chunks(names)) for (const r of await tx.prompt.findMany({ where: { name: { in: part }, ...live }, select: headSelect })) out.set(r.name, toHead(r));
      return out;
    },
    async deletedHead(name) {
      const r = await tx.prompt.findFirst({ where: { name, deletedAt: { not: null } }, select: deletedHeadSelect });
      return r ? { ...toHead(r), deletedAt: r.deletedAt!, deletedBy: r.deletedBy } : null;
    },
    versionCount: (id) => tx.promptVersion.count({ where: { promptId: id } }),
    detail: (name) => findPromptDetail(tx, name),
    version: (name, number) => findVersion(tx, name, number),
    list: (filter, opts) => listPromptSummaries(tx, dialect, filter, opts),
    count: (filter, opts) => countPrompts(tx, dialect, filter, opts),
    changeMarker: () => changeMarker(tx),
    async listVersions(head, opts) {
      const rows = await tx.promptVersion.findMany({
        where: { promptId: head.id, ...(opts.before ? { number: { lt: opts.before } } : {}) },
        orderBy: { number: 'desc' },
        take: opts.limit,
        select: { number: true, title: true, note: true, author: true, createdAt: true, labels: { select: { name: true }, orderBy: { name: 'asc' } } },
      });
      return rows.map((r): VersionSummary => ({
        version: r.number, title: r.title, note: r.note, author: r.author, createdAt: r.createdAt, active: r.number === head.activeVersion, labels: r.labels.map((l) => l.name),
      }));
    },
    states: (names, opts) => loadStates(tx, names, opts),

    async takenNames(names) {
      // Raw, a batch of names per statement: through Prisma it was a query per 100 names (~0.8 ms each on PostgreSQL).
      const out: string[] = [];
      for (const part of chunks(names, 500)) out.push(...(await sql.query<{ name: string }>(Prisma.sql`SELECT "name" FROM "Prompt" WHERE "name" IN (${Prisma.join(part)})`)).map((r) => r.name));
      return out;
    },
    async insertPrompts(items, at) {
      searched.clear();
      const made = await insertRows<{ id: number; name: string }>(sql, 'Prompt', ['name', 'latestVersion', 'revision', 'createdAt', 'updatedAt', 'searchText'],
        items.map((i) => [i.name, i.latestVersion, 1, at, at, i.latest ? searchTextOf(i.name, i.latest) : '']), ['id', 'name']);
      const ids = new Map(made.map((r) => [r.name, Number(r.id)]));
      for (const i of items) if (i.latest) searched.add(ids.get(i.name)!);
      return ids;
    },
    async bumpLatest(name, by, expect, at = new Date()) {
      // One statement: the conditional update and the head it leaves (RETURNING, SQLite
      // 3.35+ and PostgreSQL), so a write does not read back what it just wrote. A new
      // latest version is newer than any active one: an active prompt is now pending
      // (a move of the production label later in the transaction sets it again).
      const rows = await sql.query<{ id: unknown; name: string; archived: unknown; latestVersion: unknown; revision: unknown; activeVersion: unknown }>(Prisma.sql`
        UPDATE "Prompt" SET "latestVersion" = "latestVersion" + ${by}, "revision" = "revision" + 1, "updatedAt" = ${at},
          "pending" = ("activeVersionId" IS NOT NULL)
        WHERE "name" = ${name} AND "deletedAt" IS NULL
          ${expect.latest !== undefined ? Prisma.sql`AND "latestVersion" = ${expect.latest}` : Prisma.empty}
          ${expect.revision !== undefined ? Prisma.sql`AND "revision" = ${expect.revision}` : Prisma.empty}
        RETURNING "id", "name", "archived", "latestVersion", "revision",
          (SELECT v."number" FROM "PromptVersion" v WHERE v."id" = "Prompt"."activeVersionId") AS "activeVersion"`);
      const r = rows[0];
      if (!r) return null;
      return { id: Number(r.id), name: r.name, archived: Boolean(Number(r.archived)), latestVersion: Number(r.latestVersion), revision: Number(r.revision), activeVersion: r.activeVersion == null ? null : Number(r.activeVersion) };
    },
    async insertVersions(versions, resourceIds, at, events) {
      try {
        await insertVersions(tx, sql, dialect, versions, resourceIds, at, events, searched, written);
      } finally {
        searched.clear();
      }
    },
    storedVersion: (v, at) => storedVersion(v, at),
    async existingVersions(pairs) {
      const out = new Set<string>();
      for (const part of chunks(pairs)) {
        const rows = await tx.promptVersion.findMany({ where: pairsWhere(part), select: { promptId: true, number: true } });
        for (const r of rows.filter(hasPair(part))) out.add(key(r.promptId, r.number));
      }
      return out;
    },
    async rename(id, name) {
      const { searchText } = await tx.prompt.findUniqueOrThrow({ where: { id }, select: { searchText: true } });
      await tx.prompt.update({ where: { id }, data: { name, searchText: renamedSearchText(searchText, name), revision: { increment: 1 } } });
    },
    async setTags(id, tags) {
      await tx.prompt.update({ where: { id }, data: { tags: JSON.stringify(tags), revision: { increment: 1 } } });
    },
    async tags(id) {
      return parseTags((await tx.prompt.findUniqueOrThrow({ where: { id }, select: { tags: true } })).tags);
    },
    async setArchived(id, archived) {
      await tx.prompt.update({ where: { id }, data: { archived, revision: { increment: 1 } } });
    },
    async softDelete(id, at, by) {
      // The active-version pointer stays: a restore serves what was served.
      await tx.prompt.update({ where: { id }, data: { deletedAt: at, deletedBy: by, revision: { increment: 1 } } });
    },
    async restore(id) {
      await tx.prompt.update({ where: { id }, data: { deletedAt: null, deletedBy: null, revision: { increment: 1 } } });
    },
    async expired(before, limit) {
      return tx.prompt.findMany({ where: { deletedAt: { lt: before } }, select: { id: true, name: true }, orderBy: { deletedAt: 'asc' }, take: limit });
    },
    async purge(id) {
      // The active-version pointer references a version; clear it before the cascade.
      await tx.prompt.update({ where: { id }, data: { activeVersionId: null } });
      await tx.prompt.delete({ where: { id } });
    },
    async includeCandidates(name) {
      // mayInclude marks every include and every text holding TEXT_INCLUDE (versionCreateData).
      const may = { mayInclude: true, ...(name !== undefined ? { OR: [{ type: 'include', includePrompt: name }, { type: 'text' }] } : {}) };
      // Most libraries include nothing: the index on mayInclude says so, where the query
      // below joins every version to its prompt and probes its messages (an import's check
      // gate runs it once per batch).
      if (!(await tx.promptMessage.findFirst({ where: may, select: { id: true } }))) return [];
      const rows = await tx.promptVersion.findMany({
        where: { prompt: { deletedAt: null }, messages: { some: may } },
        select: {
          number: true,
          prompt: { select: { name: true, latestVersion: true, archived: true } },
          labels: { select: { name: true }, orderBy: { name: 'asc' } },
          messages: { where: may, orderBy: { position: 'asc' }, include: { binding: true } },
        },
        orderBy: [{ promptId: 'asc' }, { number: 'asc' }],
      });
      return rows
        .filter((r) => r.labels.length > 0 || r.number === r.prompt.latestVersion)
        .map((r) => ({
          prompt: r.prompt.name,
          version: r.number,
          archived: r.prompt.archived,
          latest: r.number === r.prompt.latestVersion,
          labels: r.labels.map((l) => l.name),
          messages: toVersion({ arguments: [], messages: r.messages } as unknown as VersionRow).messages,
        }));
    },
  };
}
