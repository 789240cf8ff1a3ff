// Prompt, version, argument, message and binding rows ↔ domain objects.
import type { Tx } from './tx.js';
import { promptIdsMatching } from './search.js';
import type { Argument, Content, Message, PromptDetail, PromptSummary, Version, VersionSummary } from '../types.js';
import type { VersionInput } from '../schemas.js';
import { isUriTemplate } from '../uri-template.js';

export const versionInclude = {
  arguments: { orderBy: { position: 'asc' as const } },
  messages: { orderBy: { position: 'asc' as const }, include: { binding: true } },
};

type VersionRow = NonNullable<Awaited<ReturnType<Tx['promptVersion']['findFirst']>>> & {
  arguments: Awaited<ReturnType<Tx['promptArgument']['findMany']>>;
  messages: (Awaited<ReturnType<Tx['promptMessage']['findMany']>>[number] & {
    binding: Awaited<ReturnType<Tx['resourceBinding']['findFirst']>>;
  })[];
};

const parseJson = <T>(s: string | null): T | null => (s == null ? null : (JSON.parse(s) as T));

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
          content = { type: 'resource', uri };
          break;
        default:
          content = { type: 'resource_link', uri };
      }
      if (annotations) (content as { annotations?: unknown }).annotations = annotations;
      return { role: m.role as Message['role'], content };
    }),
  };
}

/** Nested-create data for a version's rows. `resourceIds` maps literal URIs to stored resources. */
export function versionCreateData(input: VersionInput, resourceIds: Map<string, number>) {
  return {
    title: input.title ?? null,
    description: input.description ?? null,
    icons: input.icons ? JSON.stringify(input.icons) : null,
    note: input.note ?? null,
    arguments: {
      create: input.arguments.map((a, position) => ({
        position,
        name: a.name,
        title: a.title ?? null,
        description: a.description ?? null,
        required: a.required,
        choices: a.choices ? JSON.stringify(a.choices) : null,
        maxLength: a.maxLength ?? null,
      })),
    },
    messages: {
      create: input.messages.map((m, position) => {
        const c = m.content;
        const base = {
          position,
          role: m.role,
          type: c.type,
          annotations: c.annotations ? JSON.stringify(c.annotations) : null,
        };
        const bindingUri = 'resourceUri' in c ? c.resourceUri : 'uri' in c ? c.uri : undefined;
        if (c.type === 'text') return { ...base, text: c.text };
        if ('data' in c) return { ...base, data: Buffer.from(c.data, 'base64'), mimeType: c.mimeType };
        const templated = isUriTemplate(bindingUri!);
        return {
          ...base,
          binding: {
            create: { uri: bindingUri!, isTemplate: templated, resourceId: templated ? null : (resourceIds.get(bindingUri!) ?? null) },
          },
        };
      }),
    },
  };
}

type PromptRow = NonNullable<Awaited<ReturnType<Tx['prompt']['findFirst']>>>;

export function toSummary(p: PromptRow & { activeVersion: { number: number } | null }, latest: { title: string | null; description: string | null } | null): PromptSummary {
  return {
    name: p.name,
    title: latest?.title ?? null,
    description: latest?.description ?? null,
    activeVersion: p.activeVersion?.number ?? null,
    latestVersion: p.latestVersion,
    archived: p.archived,
    updatedAt: p.updatedAt,
  };
}

export async function findPromptDetail(tx: Tx, name: string): Promise<PromptDetail | null> {
  const p = await tx.prompt.findUnique({ where: { name }, include: { activeVersion: { include: versionInclude } } });
  if (!p) return null;
  const latest = await tx.promptVersion.findFirst({ where: { promptId: p.id, number: p.latestVersion }, include: versionInclude });
  if (!latest) return null;
  return {
    name: p.name,
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
  const v = await tx.promptVersion.findFirst({ where: { prompt: { name }, number }, include: versionInclude });
  return v ? toVersion(v as VersionRow) : null;
}

export async function listPromptSummaries(
  tx: Tx,
  opts: { q?: string; archived?: boolean; after?: string; limit: number },
): Promise<PromptSummary[]> {
  const ids = opts.q ? await promptIdsMatching(tx, { ...opts, q: opts.q }) : undefined;
  if (ids && !ids.length) return [];
  const rows = await tx.prompt.findMany({
    where: ids
      ? { id: { in: ids } }
      : {
          ...(opts.archived === undefined ? {} : { archived: opts.archived }),
          ...(opts.after ? { name: { gt: opts.after } } : {}),
        },
    orderBy: { name: 'asc' },
    take: opts.limit,
    include: { activeVersion: { select: { number: true } } },
  });
  if (!rows.length) return [];
  const latest = await tx.promptVersion.findMany({
    where: { OR: rows.map((r) => ({ promptId: r.id, number: r.latestVersion })) },
    select: { promptId: true, title: true, description: true },
  });
  const byPrompt = new Map(latest.map((l) => [l.promptId, l]));
  return rows.map((r) => toSummary(r, byPrompt.get(r.id) ?? null));
}

export async function listVersionSummaries(tx: Tx, promptId: number, activeVersionId: number | null, opts: { before?: number; limit: number }): Promise<VersionSummary[]> {
  const rows = await tx.promptVersion.findMany({
    where: { promptId, ...(opts.before ? { number: { lt: opts.before } } : {}) },
    orderBy: { number: 'desc' },
    take: opts.limit,
    select: { id: true, number: true, title: true, note: true, author: true, createdAt: true },
  });
  return rows.map((r) => ({ version: r.number, title: r.title, note: r.note, author: r.author, createdAt: r.createdAt, active: r.id === activeVersionId }));
}

export { type VersionRow };
