// Resolves URIs against stored resources and resource templates only: never the
// file system or the network. Cached in memory; the change feed invalidates it.
import type { ResolvedResource, ResourceResolver } from './render.js';
import type { ChangeEvent, ResourceTemplate } from './types.js';
import type { Repositories } from './ports.js';
import { compileUriMatcher, type UriMatcher } from './uri-template.js';
import { renderTemplate } from './template.js';
import { LIMITS } from './schemas.js';

export interface CachingResolver extends ResourceResolver {
  /**
   * What an MCP client may read directly (resources/read): public stored resources
   * and resource template expansions. A `bound` resource reaches clients only
   * embedded through a served prompt's binding, and reads as not found.
   */
  resolvePublic(uri: string): Promise<ResolvedResource | null>;
  invalidate(events: ChangeEvent[]): void;
  templates(): Promise<{ template: ResourceTemplate; matcher: UriMatcher }[]>;
}

const MAX_CACHED = 5_000;

export function createResourceResolver(repos: Pick<Repositories, 'resources' | 'templates'>): CachingResolver {
  const cache = new Map<string, ResolvedResource | null>();
  let templatesP: Promise<{ template: ResourceTemplate; matcher: UriMatcher }[]> | undefined;

  const templates = () =>
    (templatesP ??= repos.templates.list().then((ts) => ts.map((template) => ({ template, matcher: compileUriMatcher(template.uriTemplate) }))));

  async function load(uri: string): Promise<ResolvedResource | null> {
    const r = await repos.resources.byUri(uri);
    if (r) {
      return {
        uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, visibility: r.visibility,
        ...(r.blob ? { blob: Buffer.from(r.blob).toString('base64') } : { text: r.text ?? '' }),
      };
    }
    for (const { template, matcher } of await templates()) {
      const vars = matcher.match(uri);
      if (vars) {
        return { uri, name: template.name, title: template.title, description: template.description, mimeType: template.mimeType, text: renderTemplate(template.text, vars), visibility: 'public' };
      }
    }
    return null;
  }

  const resolver: CachingResolver = {
    async resolvePublic(uri) {
      const r = await resolver.resolve(uri);
      return r?.visibility === 'public' ? r : null;
    },
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
  return resolver;
}
