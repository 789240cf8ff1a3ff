// Every result a session receives contains only what its negotiated protocol
// version defines. The core renders once, for the newest version; this is the one
// place that downgrades, on the way out of the transport, so nothing a handler (or
// the SDK itself, for initialize) sends can skip it. Old clients validate results
// against their own schemas and reject a whole prompts/get for one content block
// they do not know (SDK 1.0.x: `invalid_union: received "resource_link"`).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedResource } from '../core/render.js';

/** The version each feature appeared in (the spec's changelogs). */
export const SINCE = {
  audio: '2025-03-26',
  completionsCapability: '2025-03-26',
  toolAnnotations: '2025-03-26',
  resourceLink: '2025-06-18',
  title: '2025-06-18',
  contentMeta: '2025-06-18',
  lastModified: '2025-06-18',
  structuredContent: '2025-06-18',
  icons: '2025-11-25',
} as const;

/** Protocol versions are ISO dates, so they order as strings. */
export const atLeast = (version: string, since: string) => version >= since;

/** What the SDK's Server answers to an initialize request asking for `requested`. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export interface ShapeContext {
  /** A stored resource's contents, for embedding a resource_link an old client cannot follow. */
  resolve(uri: string): Promise<ResolvedResource | null>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Drops the metadata fields `version` does not define from a prompt/resource/tool/implementation. */
function shapeDescriptor(d: Obj, version: string): Obj {
  const out: Obj = { ...d };
  if (!atLeast(version, SINCE.title)) delete out.title;
  if (!atLeast(version, SINCE.icons)) {
    delete out.icons;
    delete out.websiteUrl;
  }
  if (!atLeast(version, SINCE.contentMeta)) delete out._meta;
  if (Array.isArray(out.arguments)) out.arguments = out.arguments.map((a) => (isObj(a) ? shapeDescriptor(a, version) : a));
  if (isObj(out.annotations)) out.annotations = shapeAnnotations(out.annotations, version);
  return out;
}

function shapeAnnotations(a: Obj, version: string): Obj | undefined {
  if (atLeast(version, SINCE.lastModified)) return a;
  const { lastModified: _dropped, ...rest } = a;
  return rest;
}

function shapeResourceContents(r: Obj, version: string): Obj {
  if (atLeast(version, SINCE.contentMeta)) return r;
  const { _meta: _dropped, ...rest } = r;
  return rest;
}

/** One content block (prompt message or tool result) for `version`. */
export async function shapeContent(c: Obj, version: string, ctx: ShapeContext): Promise<Obj> {
  let out: Obj = { ...c };
  if (out.type === 'resource_link' && !atLeast(version, SINCE.resourceLink)) {
    const uri = String(out.uri);
    const r = await ctx.resolve(uri).catch(() => null);
    const resource = r
      ? r.blob !== undefined
        ? { uri: r.uri, mimeType: r.mimeType, blob: r.blob }
        : { uri: r.uri, mimeType: r.mimeType, text: r.text ?? '' }
      : null;
    out = resource
      ? { type: 'resource', resource, ...(out.annotations ? { annotations: out.annotations } : {}) }
      : { type: 'text', text: `Resource: ${uri}${out.name ? ` (${String(out.name)})` : ''}` };
  }
  if (out.type === 'audio' && !atLeast(version, SINCE.audio)) {
    // An embedded resource keeps the bytes; the URN only names them (it is not readable).
    out = {
      type: 'resource',
      resource: { uri: `urn:promptd:audio:${String(out.mimeType)}`, mimeType: out.mimeType, blob: out.data },
      ...(out.annotations ? { annotations: out.annotations } : {}),
    };
  }
  if (!atLeast(version, SINCE.contentMeta)) delete out._meta;
  if (isObj(out.annotations)) out.annotations = shapeAnnotations(out.annotations, version);
  if (isObj(out.resource)) out.resource = shapeResourceContents(out.resource, version);
  return out;
}

/**
 * The newest feature each method's result can carry: a session on this version or later
 * gets that result unchanged (no copy, no await). prompts/get and tools/call carry
 * content blocks only, so clients on 2025-06-18 (most of them) skip their shaping.
 */
const SHAPED_UNTIL = new Map<string, string>(Object.entries({
  initialize: SINCE.icons,
  'prompts/list': SINCE.icons,
  'resources/list': SINCE.icons,
  'resources/templates/list': SINCE.icons,
  'resources/read': SINCE.contentMeta,
  'prompts/get': [SINCE.audio, SINCE.resourceLink, SINCE.contentMeta, SINCE.lastModified].sort().at(-1)!,
  'tools/list': [SINCE.icons, SINCE.structuredContent, SINCE.toolAnnotations].sort().at(-1)!,
  'tools/call': [SINCE.structuredContent, SINCE.audio, SINCE.resourceLink, SINCE.contentMeta, SINCE.lastModified].sort().at(-1)!,
}));

/** Whether a `method` result for a session on `version` may differ from what the core rendered. */
export const needsShaping = (method: string, version: string): boolean => {
  const until = SHAPED_UNTIL.get(method);
  return until !== undefined && !atLeast(version, until);
};

/** A result of `method` for a session on `version`. */
export async function shapeResult(method: string, result: Obj, version: string, ctx: ShapeContext): Promise<Obj> {
  switch (method) {
    case 'initialize': {
      const out: Obj = { ...result };
      if (isObj(out.serverInfo)) out.serverInfo = shapeDescriptor(out.serverInfo, version);
      if (isObj(out.capabilities) && !atLeast(version, SINCE.completionsCapability)) {
        const { completions: _dropped, ...caps } = out.capabilities;
        out.capabilities = caps;
      }
      return out;
    }
    case 'prompts/list':
      return { ...result, prompts: (result.prompts as Obj[]).map((p) => shapeDescriptor(p, version)) };
    case 'resources/list':
      return { ...result, resources: (result.resources as Obj[]).map((r) => shapeDescriptor(r, version)) };
    case 'resources/templates/list':
      return { ...result, resourceTemplates: (result.resourceTemplates as Obj[]).map((r) => shapeDescriptor(r, version)) };
    case 'resources/read':
      return { ...result, contents: (result.contents as Obj[]).map((r) => shapeResourceContents(r, version)) };
    case 'prompts/get': {
      const messages = await Promise.all(
        (result.messages as Obj[]).map(async (m) => ({ ...m, content: await shapeContent(m.content as Obj, version, ctx) })),
      );
      return { ...result, messages };
    }
    case 'tools/list':
      return {
        ...result,
        tools: (result.tools as Obj[]).map((t) => {
          const out = shapeDescriptor(t, version);
          if (!atLeast(version, SINCE.structuredContent)) delete out.outputSchema;
          if (!atLeast(version, SINCE.toolAnnotations)) delete out.annotations;
          return out;
        }),
      };
    case 'tools/call': {
      const out: Obj = { ...result };
      if (!atLeast(version, SINCE.structuredContent)) delete out.structuredContent;
      if (Array.isArray(out.content)) out.content = await Promise.all(out.content.map((c) => (isObj(c) ? shapeContent(c, version, ctx) : c)));
      return out;
    }
    default:
      return result;
  }
}

/**
 * Connects nothing itself: wraps a transport already connected to a Server (whose
 * `onmessage` the Server has set) so results are shaped for the version the
 * client negotiated. Sessions on the newest version pass through untouched.
 */
export function shapeByNegotiatedVersion(transport: Transport, ctx: ShapeContext, onVersion?: (version: string) => void): void {
  const receive = transport.onmessage;
  const send = transport.send.bind(transport);
  if (!receive) throw new Error('shapeByNegotiatedVersion: connect the server to the transport first');
  let version: string = LATEST_PROTOCOL_VERSION;
  // Request id → method, kept only while a downgrade is needed.
  const pending = new Map<string | number, string>();
  let downgrade = false;

  transport.onmessage = (message, extra) => {
    const m = message as Obj;
    if (typeof m.method === 'string' && 'id' in m) {
      if (m.method === 'initialize') {
        version = negotiatedVersion((m.params as Obj | undefined)?.protocolVersion);
        downgrade = version < LATEST_PROTOCOL_VERSION;
        onVersion?.(version);
      }
      if (m.method === 'initialize' || (downgrade && needsShaping(m.method, version))) pending.set(m.id as string | number, m.method);
    }
    receive(message, extra);
  };

  transport.send = async (message, options) => {
    const m = message as Obj;
    if (pending.size && 'id' in m && ('result' in m || 'error' in m)) {
      const method = pending.get(m.id as string | number);
      pending.delete(m.id as string | number);
      if (method && isObj(m.result) && downgrade) {
        return send({ ...m, result: await shapeResult(method, m.result, version, ctx) } as JSONRPCMessage, options);
      }
    }
    return send(message, options);
  };
}
