// The MCP list page-size cap, on its own so the CLI's option parsing need not load the MCP server.
export const MAX_PAGE_SIZE = 1000;
