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
import type { ServedPrompt } from '../core/catalog.js';
import { completeResourceVariable } from '../core/completion.js';
import { guarded, type ErrorLog } from './errors.js';
import { notifierFor, type Session } from './notifier.js';
import { shapeByNegotiatedVersion } from './protocol-shape.js';
import { registerTools } from './tools.js';

export const SERVER_NAME = 'promptd';
export const SERVER_VERSION = '0.1.0';
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export interface McpServerOptions {
  core: Core;
  /** prompts/list, resources/list and tools/list page size (default 50, at most 1000). */
  pageSize?: number;
  /** The tools face (list_prompts, get_prompt); default on. */
  tools?: boolean;
  /** Every served prompt is also a tool named after it (implies tools). */
  promptTools?: boolean;
  /** Where internal errors go (never to the client). Default: stderr. */
  log?: ErrorLog;
}

const defaultLog: ErrorLog = (msg, e) => {
  const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
  process.stderr.write(`promptd mcp: ${msg}: ${detail}\n`);
};

// Optional fields are left out rather than sent as null: the SDK's schemas (and
// strict clients) reject null where a string is expected.
const opt = <K extends string, V>(key: K, v: V | null | undefined) => (v == null ? {} : ({ [key]: v } as { [P in K]: V }));

export function toMcpPrompt(p: ServedPrompt): Prompt {
  return {
    name: p.name,
    ...opt('title', p.title),
    ...opt('description', p.description),
    arguments: p.arguments.map((a) => ({ name: a.name, ...opt('title', a.title), ...opt('description', a.description), required: a.required })),
    ...(p.icons?.length ? { icons: p.icons } : {}),
  };
}

export function createMcpServer({ core, pageSize = DEFAULT_PAGE_SIZE, log = defaultLog, tools = true, promptTools = false }: McpServerOptions): Server {
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
  const session: Session = { server, subscriptions: new Set(), toolsListChanged: withTools && promptTools };
  const handle = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) => guarded(log, fn);
  // Loading the catalog is once per core; later calls return the settled promise.
  const ready = () => core.catalog.ready();

  server.setRequestHandler(
    ListPromptsRequestSchema,
    handle(async (req) => {
      await ready();
      const page = core.catalog.list({ cursor: req.params?.cursor, limit: pageSize });
      return { prompts: page.prompts.map(toMcpPrompt), ...opt('nextCursor', page.nextCursor) };
    }),
  );

  server.setRequestHandler(
    GetPromptRequestSchema,
    handle(async (req): Promise<GetPromptResult> => {
      await ready();
      const rendered = await core.catalog.render(req.params.name, req.params.arguments ?? {});
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
        result = core.catalog.complete(ref.name, argument.name, argument.value, known);
      } else {
        const templates = await core.resolver.templates();
        if (!templates.some((t) => t.template.uriTemplate === ref.uri)) {
          throw new McpError(ErrorCode.InvalidParams, `no resource template "${ref.uri}" (resources/templates/list shows them)`);
        }
        result = await completeResourceVariable(core.db, ref.uri, argument.name, argument.value, known);
      }
      return { completion: result };
    }),
  );

  server.setRequestHandler(
    ListResourcesRequestSchema,
    handle(async (req) => {
      const page = await core.resources.list({ limit: pageSize, cursor: req.params?.cursor });
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
      const templates = await core.resolver.templates();
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
      const r = await core.resolver.resolve(uri);
      // -32602 per SEP-2164 (and what the TypeScript SDK's McpServer sends).
      if (!r) throw new McpError(ErrorCode.InvalidParams, `resource "${uri}" not found: it is not a stored resource and matches no resource template`, { uri });
      const content = r.blob !== undefined ? { uri: r.uri, mimeType: r.mimeType, blob: r.blob } : { uri: r.uri, mimeType: r.mimeType, text: r.text ?? '' };
      return { contents: [content] };
    }),
  );

  server.setRequestHandler(
    SubscribeRequestSchema,
    handle(async (req) => {
      // Subscribing to a URI that does not exist yet is allowed: it may be created.
      session.subscriptions.add(req.params.uri);
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

  if (withTools) registerTools(server, { core, pageSize, promptTools, log });

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
 * Connects a server to its transport, with every result shaped for the protocol
 * version the client negotiates (src/mcp/protocol-shape.ts). Use this, never
 * server.connect() alone.
 */
export async function connectMcpServer(server: Server, transport: Transport, core: Core): Promise<void> {
  await server.connect(transport);
  shapeByNegotiatedVersion(transport, { resolve: (uri) => core.resolver.resolve(uri) });
}

/**
 * The SDK validates each request against its schema before our handler runs and
 * reports a failure as -32603 (modelcontextprotocol/typescript-sdk#2284). Malformed
 * params are the client's mistake: answer -32602 naming the failing fields.
 */
function invalidParamsForSchemaErrors(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers?: Map<string, (req: unknown, extra: unknown) => Promise<unknown>> })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (req, extra) => {
      try {
        return await handler(req, extra);
      } catch (e) {
        const issues = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
        if (!(e instanceof McpError) && Array.isArray(issues)) {
          const detail = issues.map((i) => `${i.path.map(String).join('.') || '(request)'}: ${i.message}`).join('; ');
          throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${detail}`);
        }
        throw e;
      }
    });
  }
}
