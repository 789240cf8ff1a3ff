// Resolves URIs against stored resources and resource templates only: never the
// file system or the network. Cached in memory; the change feed invalidates it.
import type { Db } from '../db/create-db.js';
import type { ResolvedResource, ResourceResolver } from './render.js';
import type { ChangeEvent, ResourceTemplate } from './types.js';
import { findResourceByUri, listTemplates } from './repo/resources-repo.js';
import { compileUriMatcher, type UriMatcher } from './uri-template.js';
import { renderTemplate } from './template.js';
import { LIMITS } from './schemas.js';

export interface CachingResolver extends ResourceResolver {
  invalidate(events: ChangeEvent[]): void;
  templates(): Promise<{ template: ResourceTemplate; matcher: UriMatcher }[]>;
}

const MAX_CACHED = 5_000;

export function createResourceResolver(db: Db): CachingResolver {
  const cache = new Map<string, ResolvedResource | null>();
  let templatesP: Promise<{ template: ResourceTemplate; matcher: UriMatcher }[]> | undefined;

  const templates = () =>
    (templatesP ??= listTemplates(db.prisma).then((ts) => ts.map((template) => ({ template, matcher: compileUriMatcher(template.uriTemplate) }))));

  async function load(uri: string): Promise<ResolvedResource | null> {
    const r = await findResourceByUri(db.prisma, uri);
    if (r) {
      return {
        uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType,
        ...(r.blob ? { blob: Buffer.from(r.blob).toString('base64') } : { text: r.text ?? '' }),
      };
    }
    for (const { template, matcher } of await templates()) {
      const vars = matcher.match(uri);
      if (vars) {
        return { uri, name: template.name, title: template.title, description: template.description, mimeType: template.mimeType, text: renderTemplate(template.text, vars) };
      }
    }
    return null;
  }

  return {
    async resolve(uri) {
      // No stored URI is longer (or holds NUL, which PostgreSQL rejects): refusing early
      // bounds template matching work and the cache's memory.
      if (uri.length > LIMITS.uriLength || uri.includes('\u0000')) return null;
      if (cache.has(uri)) return cache.get(uri)!;
      const r = await load(uri);
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      cache.set(uri, r);
      return r;
    },
    invalidate(events) {
      if (events.some((e) => e.entity === 'resource' || e.entity === 'resource_template')) {
        cache.clear();
        if (events.some((e) => e.entity === 'resource_template')) templatesP = undefined;
      }
    },
    templates,
  };
}
