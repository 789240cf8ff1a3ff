// Export: writes prompts and the resources they need in the library format.
// Output is deterministic (sorted, fixed key order, content-derived file names), so
// exporting the same database twice gives identical bytes and changes diff well in git.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { Core, Resource, Version } from '../core/index.js';
import { compileUriMatcher, isUriTemplate } from '../core/uri-template.js';
import { fromVersion, isTextMime, type InlineMediaFile } from './format.js';
import { MANIFEST } from './read-library.js';
import { resourceFileName, extensionFor } from './file-names.js';
import { createExportWriter } from './safe-write.js';

export interface ExportOptions {
  /** the latest version instead of the active one (prompts without an active version are then included) */
  latest?: boolean;
  /** every version, each with its labels */
  allVersions?: boolean;
  /** remove files under prompts/, resources/ and media/ that this export did not write */
  prune?: boolean;
  /** write an export with no prompts over a library that has some */
  force?: boolean;
  /**
   * every stored resource (default), not only those the exported versions reference:
   * resources are not versioned, so an export that leaves one out loses it
   */
  allResources?: boolean;
}

export interface ExportReport {
  dir: string;
  prompts: number;
  versions: number;
  /** prompts left out because no version is active (use --latest or --all-versions) */
  skipped: string[];
  resources: number;
  templates: number;
  pruned: string[];
  /** prompts whose exported (active) version is not their latest: the file is not what was last imported or edited */
  behind: { name: string; exported: number; latest: number }[];
  /** entries prune left alone because they are not regular files in real directories */
  notPruned: string[];
}

// Short lists read best inline, as in hand-written files: `choices: [1h, 24h, 7d]`.
const FLOW_KEYS = new Set(['choices', 'annotations', 'sizes', 'labels', 'tags']);

export function toYaml(value: unknown): string {
  const doc = new YAML.Document(value);
  YAML.visit(doc, {
    Pair(_, pair) {
      const key = YAML.isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key === 'string' && FLOW_KEYS.has(key) && YAML.isCollection(pair.value)) pair.value.flow = true;
    },
  });
  // lineWidth 0: never fold long lines, so a one-word edit is a one-line diff.
  return doc.toString({ lineWidth: 0, blockQuote: 'literal', flowCollectionPadding: false });
}

/**
 * `labels: [...]` of the labels pointing at `version`. A single-version file always
 * has the key (an empty list says "no label", so importing it with --activate does
 * not serve it); history versions only when they carry a label.
 */
function labelsOn(labels: Record<string, number>, version: number, always: boolean): { labels?: string[] } {
  const on = Object.keys(labels).filter((l) => labels[l] === version).sort();
  return on.length || always ? { labels: on } : {};
}

/** `tags: [...]` only on tagged prompts (an untagged file leaves a prompt's tags alone on import). */
const tagged = (tags: string[] | undefined): { tags?: string[] } => (tags?.length ? { tags } : {});

async function allPromptNames(core: Core, tags: Map<string, string[]>): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await core.prompts.list({ archived: false, limit: 200, cursor });
    names.push(...page.items.map((p) => p.name));
    for (const p of page.items) if (p.tags.length) tags.set(p.name, p.tags);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return names;
}

async function allResources(core: Core): Promise<Resource[]> {
  const out: Resource[] = [];
  let cursor: string | undefined;
  do {
    const page = await core.resources.list({ limit: 200, cursor });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

function boundUris(versions: Version[]): { literal: Set<string>; templates: Set<string> } {
  const literal = new Set<string>();
  const templates = new Set<string>();
  for (const v of versions) {
    for (const m of v.messages) {
      const c = m.content;
      const uri = 'resourceUri' in c ? c.resourceUri : 'uri' in c ? c.uri : undefined;
      if (uri !== undefined) (isUriTemplate(uri) ? templates : literal).add(uri);
    }
  }
  return { literal, templates };
}

export async function exportLibrary(core: Core, dir: string, opts: ExportOptions = {}): Promise<ExportReport> {
  const root = path.resolve(dir);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new Error(`${dir} exists and is not a directory`);
  const tagsOf = new Map<string, string[]>();
  const names = await allPromptNames(core, tagsOf);
  const states = await core.bulk.load(names, { history: opts.allVersions });
  const written = new Set<string>();
  const files = new Map<string, string | Buffer>();
  const put = (rel: string, content: string | Buffer) => {
    files.set(rel, content);
    written.add(rel);
  };

  // Inline media (image/audio data saved in a message) becomes a real file named by its content.
  const writeMedia = (data: string, mimeType: string): InlineMediaFile => {
    const bytes = Buffer.from(data, 'base64');
    const file = `media/${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}${extensionFor(mimeType)}`;
    put(file, bytes);
    return { file, mimeType };
  };

  const report: ExportReport = { dir: root, prompts: 0, versions: 0, skipped: [], resources: 0, templates: 0, pruned: [], notPruned: [], behind: [] };
  const exported: Version[] = [];
  for (const name of [...names].sort()) {
    const s = states.get(name);
    if (!s) continue;
    let body: Record<string, unknown>;
    if (opts.allVersions) {
      const history = s.history ?? [s.latest];
      body = {
        name,
        ...tagged(tagsOf.get(name)),
        versions: history.map((v) => ({ version: v.version, ...labelsOn(s.labels, v.version, false), ...fromVersion(v, writeMedia) })),
      };
      exported.push(...history);
      report.versions += history.length;
    } else {
      const v = opts.latest ? s.latest : s.active;
      if (!v) {
        report.skipped.push(name);
        continue;
      }
      body = { name, ...tagged(tagsOf.get(name)), ...labelsOn(s.labels, v.version, true), ...fromVersion(v, writeMedia) };
      if (v.version !== s.latest.version) report.behind.push({ name, exported: v.version, latest: s.latest.version });
      exported.push(v);
      report.versions++;
    }
    put(`prompts/${name}.yaml`, toYaml(body));
    report.prompts++;
  }

  // Every stored resource by default; otherwise the resources those versions need:
  // literal URIs, plus every stored resource a bound URI template could expand to.
  // Resource templates are few and always all exported.
  const { literal, templates: bindings } = boundUris(exported);
  const matchers = [...bindings].map((t) => compileUriMatcher(t));
  const all = opts.allResources ?? true;
  const needed = (await allResources(core)).filter((r) => all || literal.has(r.uri) || matchers.some((m) => m.match(r.uri)));
  const taken = new Set<string>();
  const manifestResources = [];
  for (const meta of needed.sort((a, b) => (a.uri < b.uri ? -1 : 1))) {
    const r = await core.resources.get(meta.id);
    const file = resourceFileName(r.uri, r.mimeType, taken);
    const binary = r.blob !== null;
    put(file, binary ? Buffer.from(r.blob!) : (r.text ?? ''));
    manifestResources.push({
      uri: r.uri,
      name: r.name,
      ...(r.title != null ? { title: r.title } : {}),
      ...(r.description != null ? { description: r.description } : {}),
      mimeType: r.mimeType,
      file,
      // Only when the mimeType rule would read the file the other way.
      ...(binary === isTextMime(r.mimeType) ? { binary } : {}),
      // Always written: an import keeps a resource's visibility when the file leaves it out.
      visibility: r.visibility,
    });
  }
  const manifestTemplates = (await core.resources.listTemplates())
    .sort((a, b) => (a.uriTemplate < b.uriTemplate ? -1 : 1))
    .map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...(t.title != null ? { title: t.title } : {}),
      ...(t.description != null ? { description: t.description } : {}),
      mimeType: t.mimeType,
      text: t.text,
    }));
  report.resources = manifestResources.length;
  report.templates = manifestTemplates.length;
  put(MANIFEST, toYaml({ resources: manifestResources, resourceTemplates: manifestTemplates }));

  if (report.prompts === 0 && !opts.force && hasPrompts(root)) {
    throw new Error(`refusing to replace the library in ${root} with an export of no prompts (is this the right database?); --force to do it anyway`);
  }
  // Every folder is checked before the first write, so a refused export writes nothing.
  const writer = createExportWriter(root);
  writer.check(files.keys());
  for (const [rel, content] of files) writer.write(rel, content);
  if (opts.prune) {
    const { removed, kept } = writer.prune(['prompts', 'resources', 'media'], written);
    report.pruned = removed;
    report.notPruned = kept;
  }
  return report;
}

/** A prompts/ folder (not a symlink) with prompt files in it: what an empty export would wipe out. */
function hasPrompts(root: string): boolean {
  const dir = path.join(root, 'prompts');
  return existsSync(dir) && lstatSync(dir).isDirectory() && readdirSync(dir).some((f) => /\.(ya?ml|json)$/i.test(f));
}
