// Domain types returned by the core. Prisma rows never leave the repository layer.
import type { Annotations, ArgumentType, ContentInput, Icon, TestCase } from './schemas.js';
import type { Role, TokenKind } from './access.js';
import type { McpScope } from './mcp-scope.js';

export interface Argument {
  name: string;
  /** how a value is parsed (MCP sends strings); docs/contracts.md "Typed arguments" */
  type: ArgumentType;
  /** filled in when an optional argument is missing; of `type`; null: none */
  default: string | number | boolean | null;
  title: string | null;
  description: string | null;
  required: boolean;
  choices: string[] | null;
  maxLength: number | null;
}

export type Content = ContentInput;

export interface Message {
  role: 'user' | 'assistant';
  content: Content;
}

export interface Version {
  version: number;
  title: string | null;
  description: string | null;
  icons: Icon[] | null;
  note: string | null;
  author: string | null;
  createdAt: Date;
  arguments: Argument[];
  messages: Message[];
  /** test cases saved with the version (docs/contracts.md, Test cases and checks); [] when none */
  tests: TestCase[];
}

export interface VersionSummary {
  version: number;
  title: string | null;
  note: string | null;
  author: string | null;
  createdAt: Date;
  active: boolean;
  /** labels pointing at this version, in name order */
  labels: string[];
}

export interface PromptSummary {
  name: string;
  title: string | null;
  description: string | null;
  activeVersion: number | null;
  latestVersion: number;
  archived: boolean;
  updatedAt: Date;
  /** the prompt's tags, sorted (docs/access.md) */
  tags: string[];
  /** only for soft-deleted prompts (`GET /prompts?deleted=true`) */
  deletedAt?: Date;
  deletedBy?: string | null;
  /** when it was last served (MCP, read API or render), from the usage buckets; null: never */
  lastUsedAt: Date | null;
}

export interface PromptDetail {
  name: string;
  /** labels the prompt carries, in name order */
  labels: string[];
  /** the prompt's tags, sorted (docs/access.md) */
  tags: string[];
  archived: boolean;
  activeVersion: number | null;
  latestVersion: number;
  createdAt: Date;
  updatedAt: Date;
  /** Changes with every write to the prompt; the ETag is derived from it. */
  revision: number;
  active: Version | null;
  latest: Version;
}

export interface Resource {
  id: number;
  uri: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  size: number;
  binary: boolean;
  /** public: listed and readable over MCP; bound: only embedded through a served prompt's binding */
  visibility: ResourceVisibility;
  createdAt: Date;
  updatedAt: Date;
}

export type ResourceVisibility = 'public' | 'bound';

export interface ResourceWithContent extends Resource {
  text: string | null;
  blob: Uint8Array | null;
}

export interface ResourceUsage {
  prompt: string;
  version: number;
  active: boolean;
}

export interface ResourceTemplate {
  id: number;
  uriTemplate: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  text: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ChangeEvent {
  id: number;
  at: Date;
  actor: string;
  action: string;
  entity: 'prompt' | 'resource' | 'resource_template' | 'token' | 'webhook' | 'settings';
  entityKey: string;
  /** true when what MCP serves (prompts/list or prompts/get) changed */
  served: boolean;
  details: Record<string, unknown> | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

// What prompts/get returns (the MCP GetPromptResult shape, defined here so the
// core does not depend on the MCP SDK).
export type RenderedContent =
  | { type: 'text'; text: string; annotations?: Annotations }
  | { type: 'image' | 'audio'; data: string; mimeType: string; annotations?: Annotations }
  | {
      type: 'resource';
      resource: { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };
      annotations?: Annotations;
    }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string; annotations?: Annotations };

export interface RenderedPrompt {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: RenderedContent }[];
}

export interface Actor {
  /** who made the change, for the audit trail: a token name, `env-token`, `cli`, `import` */
  name: string;
  /**
   * false for a caller without admin rights. Kept for callers that predate roles;
   * `role` says more and wins when set.
   */
  admin?: boolean;
  /** The caller's role (src/core/access.ts); undefined: the operator (CLI, import), an admin. */
  role?: Role;
  /** How a 403 names the caller: `token "ci-bot"`, `PROMPTD_ADMIN_TOKEN`. */
  display?: string;
}

export interface TokenInfo {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** `admin`: the admin and read APIs; `mcp`: MCP clients. Never both. */
  kind: TokenKind;
  /** Admin tokens: what the token may do. Null for MCP tokens. */
  role: Role | null;
  /** MCP tokens: what the client sees. Null for admin tokens. */
  scope: McpScope | null;
  /** The token's own rate limits (null: the instance setting applies; docs/rate-limits.md). */
  mcpRatePerMinute: number | null;
  writeRatePerMinute: number | null;
}
