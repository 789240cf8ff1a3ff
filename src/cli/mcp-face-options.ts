// The MCP face's options, shared by `serve` (HTTP) and `mcp` (stdio): page size and
// the tools face. Flags win over the environment; a bad value is a usage error.
import type { Command } from 'commander';
import { MAX_PAGE_SIZE } from '../mcp/page-size.js';
import { UsageError } from './output.js';

export interface McpFaceOptions {
  pageSize?: number;
  tools: boolean;
  promptTools: boolean;
}

export function addMcpFaceOptions(cmd: Command): Command {
  return cmd
    .option('--page-size <n>', `prompts/list, resources/list and tools/list page size, 1-${MAX_PAGE_SIZE} (default $PROMPTD_MCP_PAGE_SIZE or 50)`)
    .option('--prompt-tools', 'also serve every prompt as a tool named after it (default $PROMPTD_PROMPT_TOOLS=1)')
    .option('--no-tools', 'no tools face (list_prompts, get_prompt); default $PROMPTD_MCP_TOOLS, on');
}

const truthy = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
const falsy = (v: string | undefined) => v !== undefined && ['0', 'false', 'no', 'off'].includes(v.toLowerCase());

export function mcpFaceOptions(opts: { pageSize?: string; promptTools?: boolean; tools?: boolean }, env: NodeJS.ProcessEnv = process.env): McpFaceOptions {
  const raw = opts.pageSize ?? env.PROMPTD_MCP_PAGE_SIZE;
  let pageSize: number | undefined;
  if (raw !== undefined && raw !== '') {
    pageSize = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      const from = opts.pageSize !== undefined ? '--page-size' : 'PROMPTD_MCP_PAGE_SIZE';
      throw new UsageError(`${from} must be a whole number from 1 to ${MAX_PAGE_SIZE} (got "${raw}")`);
    }
  }
  const promptTools = opts.promptTools === true || truthy(env.PROMPTD_PROMPT_TOOLS);
  // commander sets tools=false for --no-tools and true otherwise.
  const tools = opts.tools !== false && !falsy(env.PROMPTD_MCP_TOOLS);
  if (!tools && promptTools) throw new UsageError('--prompt-tools needs the tools face: drop --no-tools (or PROMPTD_MCP_TOOLS=0)');
  return { pageSize, tools, promptTools };
}
