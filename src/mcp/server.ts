// The MCP face: one low-level SDK `Server` per connection (stdio process or HTTP
// session), all reading the same in-memory served catalog. prompts/list and
// prompts/get never touch the database in the steady state.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Core } from '../core/index.js';
import { MAX_PAGE_SIZE } from './page-size.js';
import { scopedView, type ServedPrompt } from '../core/catalog.js';
import { seesResources, type McpSessionAuth } from '../core/mcp-scope.js';
import { isSafeIconSrc } from '../core/uri-schemes.js';
import { LIMITS } from '../core/schemas.js';
import { guarded, mcpError, type ErrorLog } from './errors.js';
import { notifierFor, type Session } from './notifier.js';
import { shapeByNegotiatedVersion } from './protocol-shape.js';
import { registerTools } from './tools.js';
import { usageTracker } from './usage.js';
import { dispatchDirectly } from './direct-dispatch.js';
import { requestHandlers, type RequestHandler } from './sdk-request-handlers.js';
import type { UsageTransport } from '../core/usage/types.js';
import { PRODUCTION } from '../core/schemas.js';

export const SERVER_NAME = 'promptd';
export const SERVER_VERSION = '0.1.0';
export const DEFAULT_PAGE_SIZE = 50;
export { MAX_PAGE_SIZE };
/** resources/subscribe entries one session may hold (PROMPTD_MCP_MAX_SUBSCRIPTIONS). */
export const DEFAULT_MAX_SUBSCRIPTIONS = 100;

export interface McpServerOptions {
  core: Core;
  /** prompts/list, resources/list and tools/list page size (default 50, at most 1000). */
  pageSize?: number;
  /** The tools face (list_prompts, get_prompt); default on. */
  tools?: boolean;
  /** Every served prompt is also a tool named after it (implies tools). */
  promptTools?: boolean;
  /** resources/subscribe entries per session (default 100). */
  maxSubscriptions?: number;
  /** Where internal errors go (never to the client). Default: stderr. */
  log?: ErrorLog;
  /**
   * The label view this connection serves (default `production`; `latest` is every
   * prompt's newest version). Check it first with core.catalog.open(): an unknown
   * label here simply serves an empty view.
   */
  label?: string;
  /**
   * Who the client is and what it may see (an MCP client token; docs/access.md). Its
   * scope's label wins over `label`; its tags limit every prompt path (list, get,
   * completion, tools, list_changed). Absent: the full view of `label`.
   */
  auth?: McpSessionAuth;
  /** How clients reach this server, as usage records it (default stdio). */
  transport?: Extract<UsageTransport, 'stdio' | 'http' | 'sse'>;
}

const defaultLog: ErrorLog = (msg, e) => {
  const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
  process.stderr.write(`promptd mcp: ${msg}: ${detail}\n`);
};

// Optional fields are left out rather than sent as null: the SDK's schemas (and
// strict clients) reject null where a string is expected.
const opt = <K extends string, V>(key: K, v: V | null | undefined) => (v == null ? {} : ({ [key]: v } as { [P in K]: V }));

export function toMcpPrompt(p: ServedPrompt): Prompt {
  // Icons stored before their schemes were checked are left out, never served.
  const icons = (p.icons ?? []).filter((i) => isSafeIconSrc(i.src));
  return {
    name: p.name,
    ...opt('title', p.title),
    ...opt('description', p.description),
    arguments: p.arguments.map((a) => ({ name: a.name, ...opt('title', a.title), ...opt('description', a.description), required: a.required })),
    ...(icons.length ? { icons } : {}),
  };
}

export function createMcpServer({ core, pageSize = DEFAULT_PAGE_SIZE, log = defaultLog, tools = true, promptTools = false, maxSubscriptions = DEFAULT_MAX_SUBSCRIPTIONS, label: asked = PRODUCTION, auth, transport = 'stdio' }: McpServerOptions): Server {
  const label = auth?.scope.label ?? asked;
  pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(pageSize)));
  const withTools = tools || promptTools;
  const server = new Server(
    { name: SERVER_NAME, title: 'promptd prompt library', version: SERVER_VERSION },
    {
      capabilities: {
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
        ...(withTools ? { tools: { listChanged: promptTools } } : {}),
      },
      instructions: 'Prompts managed in promptd. Use prompts/list to see them and prompts/get to render one with arguments.',
    },
  );
  const session: Session = { server, label, subscriptions: new Set(), toolsListChanged: withTools && promptTools, auth: auth ?? null };
  const handle = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) => guarded(log, fn);
  const catalog = scopedView(core.catalog.view(label), auth?.scope);
  // A tag-limited scope reads no stored resource or template directly: they carry no
  // tags (docs/access.md). Absent exactly like a missing one, on every resources path.
  const resourcesVisible = seesResources(auth?.scope);
  const usage = usageTracker(core, server, catalog, transport, auth);
  // Loading a view is once per core; later calls return the settled promise.
  const ready = () => catalog.ready();

  server.setRequestHandler(
    ListPromptsRequestSchema,
    handle(async (req) => {
      await ready();
      const page = catalog.list({ cursor: req.params?.cursor, limit: pageSize });
      return { prompts: page.prompts.map(toMcpPrompt), ...opt('nextCursor', page.nextCursor) };
    }),
  );

  server.setRequestHandler(
    GetPromptRequestSchema,
    handle(async (req): Promise<GetPromptResult> => {
      await ready();
      const rendered = await usage.render(req.params.name, (served) => catalog.render(req.params.name, req.params.arguments ?? {}, served));
      return { ...rendered };
    }),
  );

  server.setRequestHandler(
    CompleteRequestSchema,
    handle(async (req) => {
      const { ref, argument, context } = req.params;
      const known = context?.arguments ?? {};
      let result;
      if (ref.type === 'ref/prompt') {
        await ready();
        result = catalog.complete(ref.name, argument.name, argument.value, known);
      } else {
        const templates = resourcesVisible ? await core.resolver.templates() : [];
        if (!templates.some((t) => t.template.uriTemplate === ref.uri)) {
          throw mcpError(ErrorCode.InvalidParams, `no resource template "${ref.uri}" (resources/templates/list shows them)`);
        }
        result = await core.completeResource(ref.uri, argument.name, argument.value, known);
      }
      return { completion: result };
    }),
  );

  server.setRequestHandler(
    ListResourcesRequestSchema,
    handle(async (req) => {
      // Only public resources: a bound one reaches clients embedded through a served prompt.
      if (!resourcesVisible) return { resources: [] };
      const page = await core.resources.list({ limit: pageSize, cursor: req.params?.cursor, visibility: 'public' });
      return {
        resources: page.items.map((r) => ({
          uri: r.uri,
          name: r.name,
          ...opt('title', r.title),
          ...opt('description', r.description),
          mimeType: r.mimeType,
          size: r.size,
        })),
        ...opt('nextCursor', page.nextCursor),
      };
    }),
  );

  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    handle(async () => {
      // Templates are few and cached by the resolver: one page holds them all.
      const templates = resourcesVisible ? await core.resolver.templates() : [];
      return {
        resourceTemplates: templates.map(({ template: t }) => ({
          uriTemplate: t.uriTemplate,
          name: t.name,
          ...opt('title', t.title),
          ...opt('description', t.description),
          mimeType: t.mimeType,
        })),
      };
    }),
  );

  server.setRequestHandler(
    ReadResourceRequestSchema,
    handle(async (req): Promise<ReadResourceResult> => {
      const { uri } = req.params;
      // A bound resource reads exactly like a missing one: its existence is not disclosed.
      const r = resourcesVisible ? await core.resolver.resolvePublic(uri) : null;
      // -32602 per SEP-2164 (and what the TypeScript SDK's McpServer sends).
      if (!r) throw mcpError(ErrorCode.InvalidParams, `resource "${uri}" not found: it is not a stored resource and matches no resource template`, { uri });
      const content = r.blob !== undefined ? { uri: r.uri, mimeType: r.mimeType, blob: r.blob } : { uri: r.uri, mimeType: r.mimeType, text: r.text ?? '' };
      return { contents: [content] };
    }),
  );

  server.setRequestHandler(
    SubscribeRequestSchema,
    handle(async (req) => {
      // Each subscription is held in memory for the session's life: bounded in number
      // and length, and only for URIs this client may read now (public, or matching a template):
      // a bound resource is as absent here as in resources/read.
      const { uri } = req.params;
      if (session.subscriptions.has(uri)) return {};
      if (uri.length > LIMITS.uriLength) throw mcpError(ErrorCode.InvalidParams, `uri: at most ${LIMITS.uriLength} characters`);
      const full = () => session.subscriptions.size >= maxSubscriptions;
      const tooMany = () => mcpError(ErrorCode.InvalidParams, `this session already holds ${maxSubscriptions} subscriptions, the limit: resources/unsubscribe one first`);
      if (full()) throw tooMany();
      const templates = resourcesVisible ? await core.resolver.templates() : [];
      if (!templates.some(({ matcher }) => matcher.match(uri)) && !(resourcesVisible && (await core.resolver.resolvePublic(uri)))) {
        throw mcpError(ErrorCode.InvalidParams, `resource "${uri}" not found: only stored resources and URIs matching a resource template can be subscribed`, { uri });
      }
      // Concurrent subscribes may have filled the set while we looked the URI up.
      if (full()) throw tooMany();
      session.subscriptions.add(uri);
      return {};
    }),
  );

  server.setRequestHandler(
    UnsubscribeRequestSchema,
    handle(async (req) => {
      session.subscriptions.delete(req.params.uri);
      return {};
    }),
  );

  // logging/setLevel is answered by the SDK itself when the capability is declared.

  if (withTools) registerTools(server, { core, catalog, pageSize, promptTools, log, usage });

  invalidParamsForSchemaErrors(server);

  // Notifications go only to sessions past the initialize handshake, and stop
  // when the connection closes (the transport's close reaches server.onclose).
  let remove: (() => void) | undefined;
  server.oninitialized = () => {
    remove ??= notifierFor(core, log).add(session);
  };
  server.onclose = () => {
    remove?.();
    remove = undefined;
  };
  return server;
}

/**
 * Connects a server to its transport, with prompts/get dispatched directly
 * (src/mcp/direct-dispatch.ts) and every result shaped for the protocol version the
 * client negotiates (src/mcp/protocol-shape.ts). Use this, never server.connect() alone.
 */
export async function connectMcpServer(server: Server, transport: Transport, core: Core): Promise<void> {
  await server.connect(transport);
  dispatchDirectly(server, transport);
  shapeByNegotiatedVersion(transport, { resolve: (uri) => core.resolver.resolve(uri) });
}

/**
 * The SDK validates each request against its schema before our handler runs and
 * reports a failure as -32603 (modelcontextprotocol/typescript-sdk#2284). Malformed
 * params are the client's mistake: answer -32602 naming the failing fields.
 * There is no public hook for this, so we wrap the SDK's private handler map; if a
 * new SDK renames or reshapes it, this throws when the first server is created (at
 * start-up: startServer and `promptd mcp` create one before serving) instead of
 * quietly answering -32603 again.
 */
export function invalidParamsForSchemaErrors(server: Server): void {
  const wrapped = [GetPromptRequestSchema, ListPromptsRequestSchema].map((s) => s.shape.method.value);
  wrapHandlers(requestHandlers(server, wrapped, 'src/mcp/server.ts invalidParamsForSchemaErrors'));
}

function wrapHandlers(handlers: Map<string, RequestHandler>): void {
  for (const [method, handler] of handlers) {
    handlers.set(method, async (req, extra) => {
      try {
        return await handler(req, extra);
      } catch (e) {
        const issues = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
        if (!(e instanceof McpError) && Array.isArray(issues)) {
          const detail = issues.map((i) => `${i.path.map(String).join('.') || '(request)'}: ${i.message}`).join('; ');
          throw mcpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${detail}`);
        }
        throw e;
      }
    });
  }
}
