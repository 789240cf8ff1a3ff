// `promptd mcp --print-config`: the client entry with every path absolute, since a
// desktop client starts us from its own working directory with its own PATH.
import path from 'node:path';
import { projectRoot } from '../paths.js';

export const MCP_CLIENTS = ['claude', 'cursor', 'windsurf', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export const CLIENT_FILES: Record<McpClient, string> = {
  claude: 'Claude Desktop: claude_desktop_config.json (Settings → Developer → Edit Config)',
  cursor: 'Cursor: ~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
  windsurf: 'Windsurf: ~/.codeium/windsurf/mcp_config.json',
  vscode: 'VS Code: .vscode/mcp.json (or the "MCP: Open User Configuration" command)',
};

export const BIN_PATH = path.join(projectRoot, 'bin', 'promptd.js');

/** `databaseUrl` as the client must see it: a SQLite path already made absolute (commands/mcp.ts). */
export function mcpClientConfig(client: McpClient, databaseUrl: string, extraArgs: string[] = []): object {
  const entry = { command: process.execPath, args: [BIN_PATH, 'mcp', ...extraArgs], env: { DATABASE_URL: databaseUrl } };
  return client === 'vscode' ? { servers: { promptd: { type: 'stdio', ...entry } } } : { mcpServers: { promptd: entry } };
}
