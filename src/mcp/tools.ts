// Prompts as tools, for clients and agent frameworks that only speak tools
// (LangChain's MCP adapter calls tools/list first and gives up on -32601).
// Two tools by default (`list_prompts`, `get_prompt`); with `promptTools` every
// served prompt is also a tool of its own whose inputSchema is its arguments.
// Every tool answers from the same served catalog as prompts/list and prompts/get.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../core/index.js';
import type { CatalogView, ServedPrompt } from '../core/catalog.js';
import type { Argument, RenderedContent, RenderedPrompt } from '../core/types.js';
import { ERROR_TABLE, isDomainError } from '../core/errors.js';
import { PRODUCTION } from '../core/schemas.js';
import { argumentsJsonSchema, type ArgumentValue } from '../core/arguments.js';
import { guarded, mcpError, toMcpError, type ErrorLog } from './errors.js';
import type { UsageTracker } from './usage.js';

export const LIST_PROMPTS = 'list_prompts';
export const GET_PROMPT = 'get_prompt';
const BUILT_IN = new Set([LIST_PROMPTS, GET_PROMPT]);
/** Catalog entries examined per list_prompts call with a query, so one call stays bounded. */
const SEARCH_SCAN_LIMIT = 5_000;

export interface ToolsOptions {
  core: Core;
  /** The session's label view (default production). */
  catalog?: CatalogView;
  pageSize: number;
  /** Every served prompt is also a tool named after it. */
  promptTools: boolean;
  log: ErrorLog;
  /** Counts each render (src/mcp/usage.ts); none when absent. */
  usage?: UsageTracker;
}

/** The JSON Schema of a prompt's arguments, one definition for every face (core/arguments.ts). */
export { argumentsJsonSchema };

const argumentSpec = (a: Argument) => ({
  name: a.name,
  type: a.type,
  ...(a.description ? { description: a.description } : {}),
  required: a.required,
  ...(a.choices?.length ? { choices: a.choices } : {}),
  ...(a.maxLength != null ? { maxLength: a.maxLength } : {}),
  ...(a.default != null ? { default: a.default } : {}),
});

const promptSummary = (p: ServedPrompt) => ({
  name: p.name,
  ...(p.title ? { title: p.title } : {}),
  ...(p.description ? { description: p.description } : {}),
  arguments: p.arguments.map(argumentSpec),
});

const LIST_PROMPTS_TOOL: Tool = {
  name: LIST_PROMPTS,
  title: 'List prompts',
  description: 'Lists the prompts this server serves: name, title, description and the arguments each takes. Use get_prompt to render one.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Only prompts whose name, title or description contains this text (case-insensitive).' },
      cursor: { type: 'string', description: 'nextCursor of the previous call, for the next page.' },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const GET_PROMPT_TOOL: Tool = {
  name: GET_PROMPT,
  title: 'Get a prompt',
  description: 'Renders a prompt with arguments and returns its messages as text. list_prompts shows the names and the arguments each prompt takes.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The prompt name, as list_prompts shows it.' },
      arguments: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, description: 'Argument values by name: strings, or numbers and booleans for typed arguments (list_prompts shows each type).' },
    },
    required: ['name'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

function promptTool(p: ServedPrompt): Tool {
  return {
    name: p.name,
    ...(p.title ? { title: p.title } : {}),
    description: p.description ?? `Renders the prompt "${p.name}".`,
    inputSchema: argumentsJsonSchema(p.arguments) as Tool['inputSchema'],
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** A rendered prompt as tool content: text stays text, text resources are inlined. */
export function renderedAsToolResult(rendered: RenderedPrompt): CallToolResult {
  const roles = new Set(rendered.messages.map((m) => m.role));
  const label = roles.size > 1 || !roles.has('user');
  const content: CallToolResult['content'] = rendered.messages.map(({ role, content }) => {
    const prefix = label ? `[${role}]\n` : '';
    const c = content as RenderedContent;
    if (c.type === 'text') return { type: 'text', text: prefix + c.text };
    if (c.type === 'resource' && 'text' in c.resource) return { type: 'text', text: `${prefix}Resource ${c.resource.uri}:\n${c.resource.text}` };
    return c as CallToolResult['content'][number];
  });
  return { content, structuredContent: { ...rendered } };
}

/** What prompts/get answers with -32602 (bad arguments, unknown prompt, forged cursor) is a tool error result here. */
const isClientMistake = (e: unknown): e is Error => isDomainError(e) && ERROR_TABLE[e.code].jsonRpc === ErrorCode.InvalidParams;

const errorResult = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

export function registerTools(server: Server, { core, catalog = core.catalog.view(PRODUCTION), pageSize, promptTools, log, usage }: ToolsOptions): void {
  const handle = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) => guarded(log, fn);

  /** Renders for a tool: invalid arguments or an unknown prompt become an isError result, as the spec asks. */
  async function render(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const values: Record<string, ArgumentValue> = Object.create(null);
    for (const [k, v] of Object.entries(args)) {
      // Typed arguments arrive as JSON numbers and booleans (the inputSchema says so); the core checks each against its type.
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        usage?.refused(name, 'invalid_arguments');
        return errorResult(`argument "${k}" must be a string, number or boolean (got ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v})`);
      }
      values[k] = v;
    }
    try {
      const rendered = usage ? await usage.render(name, (served) => catalog.render(name, values, served)) : await catalog.render(name, values);
      return renderedAsToolResult(rendered);
    } catch (e) {
      if (isClientMistake(e)) return errorResult(e.message);
      throw toMcpError(e, log);
    }
  }

  function listPrompts(query: string | undefined, cursor: string | undefined) {
    if (!query) {
      const page = catalog.list({ cursor, limit: pageSize });
      return { prompts: page.prompts.map(promptSummary), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }
    // Bounded: at most SEARCH_SCAN_LIMIT prompts examined per call; the cursor goes on from there.
    const page = catalog.search({ query, cursor, limit: pageSize, scan: SEARCH_SCAN_LIMIT });
    return { prompts: page.prompts.map(promptSummary), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  server.setRequestHandler(
    ListToolsRequestSchema,
    handle(async (req) => {
      await catalog.ready();
      const cursor = req.params?.cursor;
      const tools: Tool[] = cursor === undefined ? [LIST_PROMPTS_TOOL, GET_PROMPT_TOOL] : [];
      if (!promptTools) {
        if (cursor !== undefined) throw mcpError(ErrorCode.InvalidParams, 'invalid cursor: tools/list has a single page here');
        return { tools };
      }
      const page = catalog.list({ cursor, limit: pageSize });
      for (const p of page.prompts) if (!BUILT_IN.has(p.name)) tools.push(promptTool(p));
      return { tools, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }),
  );

  server.setRequestHandler(
    CallToolRequestSchema,
    handle(async (req): Promise<CallToolResult> => {
      await catalog.ready();
      const { name } = req.params;
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      if (name === LIST_PROMPTS) {
        const query = typeof args.query === 'string' ? args.query : undefined;
        const cursor = typeof args.cursor === 'string' ? args.cursor : undefined;
        try {
          const result = listPrompts(query, cursor);
          return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
        } catch (e) {
          if (isClientMistake(e)) return errorResult(e.message);
          throw e;
        }
      }
      if (name === GET_PROMPT) {
        if (typeof args.name !== 'string' || !args.name) return errorResult('get_prompt needs "name": the prompt to render (list_prompts shows the names)');
        const values = args.arguments ?? {};
        if (typeof values !== 'object' || values === null || Array.isArray(values)) return errorResult('"arguments" must be an object of string values');
        return render(args.name, values as Record<string, unknown>);
      }
      if (promptTools && catalog.find(name)) return render(name, args);
      throw mcpError(ErrorCode.InvalidParams, `unknown tool "${name}" (tools/list shows the tools)`);
    }),
  );
}
