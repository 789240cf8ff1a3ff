// Calls for the Tokens page (/admin/v1/tokens), through api.ts's typed client.
import { client, request } from './api';
import type { Ok } from './types';

export type ApiToken = Ok<typeof client.tokens.$get>['items'][number];
export type CreatedToken = Ok<typeof client.tokens.$post>;
export type TokenInput = { name: string; kind?: 'admin' | 'mcp' | 'app'; role?: 'reader' | 'editor' | 'admin'; label?: string; tags?: string[] };

const data = <T>(p: Promise<{ data: T }>) => p.then((r) => r.data);

export const tokensApi = {
  list: () => data(request(client.tokens.$get, {})).then((p) => p.items),
  /** The tokens, and whether /mcp admits clients without a token now (the first MCP token ends that). */
  listWithMcp: () => data(request(client.tokens.$get, {})).then((p) => ({ items: p.items, mcpAnonymous: p.mcpAnonymous })),
  create: (body: TokenInput) => data(request(client.tokens.$post, { json: body })),
  revoke: (id: number) => data(request(client.tokens[':id'].$delete, { param: { id: String(id) } })),
};
