// What the core needs from storage, as types only. src/db implements these with
// Prisma (src/db/store.ts); the core never sees a row, a client or a dialect.
import type { Role, TokenKind } from './access.js';
import type { McpScope } from './mcp-scope.js';
import type { VersionInput } from './schemas.js';
import type {
  ChangeEvent,
  Message,
  PromptDetail,
  PromptSummary,
  Resource,
  ResourceTemplate,
  ResourceUsage,
  ResourceVisibility,
  ResourceWithContent,
  TokenInfo,
  Version,
  VersionSummary,
} from './types.js';
import type { StoredResourceInfo } from './validate-version.js';
import type { DeliveryStatus, StoredWebhook, WebhookDelivery } from './webhooks/types.js';
import type { UsageFilter, UsageRow, UsageSum } from './usage/types.js';

/** A prompt's own row: what write rules decide on. */
export interface PromptHead {
  id: number;
  name: string;
  archived: boolean;
  latestVersion: number;
  activeVersion: number | null;
  revision: number;
}

/** A prompt with its latest and active versions (and optionally every version), for import and export. */
export interface PromptState {
  name: string;
  archived: boolean;
  latestVersion: number;
  activeVersion: number | null;
  latest: Version;
  active: Version | null;
  /** every version, oldest first; only when loaded with `history` */
  history?: Version[];
  /** label → version number */
  labels: Record<string, number>;
}

export interface NewChangeEvent {
  actor: string;
  action: string;
  entity: ChangeEvent['entity'];
  entityKey: string;
  served?: boolean;
  details?: Record<string, unknown>;
}

export interface NewVersion {
  promptId: number;
  /** the prompt's name, when the writer knows it (saves reading it back for the search text) */
  name?: string;
  number: number;
  input: VersionInput;
  author: string;
}

/** A soft-deleted prompt's row. */
export interface DeletedPromptHead extends PromptHead {
  deletedAt: Date;
  deletedBy: string | null;
}

/**
 * Sort orders of the prompt list. `updated`: most recently edited first; `lastUsed`:
 * most recently served first (from the usage buckets), never-served last.
 */
export type PromptSort = 'name' | 'updated' | 'lastUsed';
/** Where a keyset page of the prompt list continues: after this prompt, in the sort's order. */
export type PromptListKey =
  | { sort: 'name'; name: string }
  | { sort: 'updated'; updatedAt: string; id: number }
  | { sort: 'lastUsed'; lastUsedAt: string | null; id: number };
/**
 * `pending`: the production label points at a version older than the latest;
 * `inactive`: no production label; `archived`: archived prompts.
 */
export type PromptStatus = 'pending' | 'inactive' | 'archived';

export interface PromptListPage {
  rows: { summary: PromptSummary; key: PromptListKey }[];
  stoppedAfter?: { name: string; key: PromptListKey };
  /**
   * With list()'s `count`, when the page came back full: count(filter, count). Also, where
   * the scan reads it anyway (PostgreSQL's one walk), when a first page's bounded scan
   * asked for `count.marker` stopped at its limit (`stoppedAfter`, no `after`): the same
   * count from the rows the scan read (its matches among the first scanLimit prompts and
   * whether the next one matches), with the marker its statement read.
   */
  counted?: CountResult;
}

/** count()'s answer; `marker` when asked for (PromptCountOptions.marker). */
export interface CountResult {
  n: number;
  partial: boolean;
  marker?: number;
}

/** count()'s options: see PromptRepository.count. */
export interface PromptCountOptions {
  upTo?: number;
  scanLimit?: number;
  sort?: PromptSort;
  /** also read changeMarker() as the count's own read saw it (`marker` of the answer) */
  marker?: boolean;
}

export interface PromptListFilter {
  /** literal, case-insensitive substring of the name, or of the latest version's title, description or message text */
  q?: string;
  archived?: boolean;
  /** only prompts carrying this label */
  label?: string;
  /** only prompts carrying one of these tags */
  tags?: string[];
  /** the soft-deleted prompts instead of the live ones */
  deleted?: boolean;
  status?: Exclude<PromptStatus, 'archived'>;
  /** only prompts not served since this instant (never-served ones included) */
  unusedSince?: Date;
  /**
   * When prompts (by name) were last served by this process, counts not stored yet: the
   * list's lastUsedAt, its lastUsed order and unusedSince take the later of these and
   * the stored rows, as the usage answers do.
   */
  recentUse?: ReadonlyMap<string, Date>;
}

/**
 * Every read but deletedHead() and list({ deleted: true }) leaves soft-deleted prompts
 * out; takenNames() counts them (a deleted prompt keeps its name until purged).
 */
export interface PromptRepository {
  head(name: string): Promise<PromptHead | null>;
  deletedHead(name: string): Promise<DeletedPromptHead | null>;
  versionCount(id: number): Promise<number>;
  /** Heads of the named prompts (missing names are absent). */
  heads(names: string[]): Promise<Map<string, PromptHead>>;
  detail(name: string): Promise<PromptDetail | null>;
  version(name: string, number: number): Promise<Version | null>;
  /**
   * One page in the sort's order, each with the key the next page continues after. With
   * `scanLimit`, a q= that no index serves reads at most that many prompts (in the sort's
   * order, after `after`): when they hold fewer than `limit` matches and more prompts
   * follow, `stoppedAfter` is the last prompt read, where the search continues. With
   * `count`, a page that comes back full (`limit` rows) also brings `counted`, the
   * count(filter, count) a caller would ask for next, read alongside the page's summaries.
   */
  list(filter: PromptListFilter, opts: { sort: PromptSort; after?: PromptListKey; limit: number; scanLimit?: number; count?: PromptCountOptions }): Promise<PromptListPage>;
  /**
   * How many prompts match the filter (the same WHERE as list()). With `upTo`, counting
   * stops there (at most upTo); with `scanLimit`, a q= that no index serves counts the
   * matches among the first that many prompts in the `sort` order only. `partial`:
   * either bound was reached.
   */
  count(filter: PromptListFilter, opts?: PromptCountOptions): Promise<CountResult>;
  /**
   * The catalog's change marker: the newest change event's id. Every committed write that
   * can change what list() finds or count() counts (versions, search text, names, labels,
   * tags, archive, delete, restore, purge, imports) appends a change event in its
   * transaction, and writers commit one at a time, ids in commit order; so while it reads
   * the same, a count made after reading it still holds. Usage is not covered (the
   * lastUsed order, `unusedSince`). Unlike Store.changeMarker it also changes with this
   * process's own commits.
   */
  changeMarker(): Promise<number>;
  listVersions(head: PromptHead, opts: { before?: number; limit: number }): Promise<VersionSummary[]>;
  /** Prompts whose latest version is stored (a prompt mid-creation by another writer is absent). */
  states(names: string[], opts?: { history?: boolean }): Promise<Map<string, PromptState>>;

  /** Which of these names are taken (by live or soft-deleted prompts). */
  takenNames(names: string[]): Promise<string[]>;
  /**
   * Inserts prompts; returns name → id. `latest`: the version that will be the latest
   * (inserted next by insertVersions), so the prompt row gets its search text at once
   * instead of in a second write of every new row.
   */
  insertPrompts(items: { name: string; latestVersion: number; latest?: VersionInput }[], at: Date): Promise<Map<string, number>>;
  /**
   * Raises latestVersion by `by` and bumps the revision, only if `expect` still holds.
   * The prompt's head as the update left it; null when `expect` does not hold (or the prompt is gone).
   */
  bumpLatest(name: string, by: number, expect: { latest?: number; revision?: number }, at?: Date): Promise<PromptHead | null>;
  /**
   * `events`: change events to append with the versions, as EventRepository.append
   * would after them (one round trip where the database allows: the write path's
   * common case, a version and its event).
   */
  insertVersions(versions: NewVersion[], resourceIds: Map<string, number>, at: Date, events?: NewChangeEvent[]): Promise<void>;
  /** A version just inserted, exactly as version() would read it back (no query). */
  storedVersion(version: NewVersion, at: Date): Version;
  /** Of these (prompt, number) pairs, the ones that exist, as `${promptId}:${number}`. */
  existingVersions(pairs: { promptId: number; number: number }[]): Promise<Set<string>>;
  rename(id: number, name: string): Promise<void>;
  setArchived(id: number, archived: boolean): Promise<void>;
  /** Replaces the prompt's tags (sorted, unique). */
  setTags(id: number, tags: string[]): Promise<void>;
  /** The prompt's tags. */
  tags(id: number): Promise<string[]>;
  softDelete(id: number, at: Date, by: string): Promise<void>;
  restore(id: number): Promise<void>;
  /** Soft-deleted before `before`, oldest first. */
  expired(before: Date, limit: number): Promise<{ id: number; name: string }[]>;
  /** Removes the prompt and all its versions for good. */
  purge(id: number): Promise<void>;
  /**
   * Versions of live prompts that may include `name` and are served somewhere (carry a
   * label or are their prompt's latest): each with its include messages and its text
   * messages containing `{{>`. The core decides which really include `name`.
   * Without a name: every served version that may include any prompt (one query for a
   * whole write's check gate instead of one per moved prompt).
   */
  includeCandidates(name?: string): Promise<IncludeCandidate[]>;
}

/** A version that may include another prompt (PromptRepository.includeCandidates). */
export interface IncludeCandidate {
  prompt: string;
  version: number;
  archived: boolean;
  /** the prompt's latest version: served under `latest` */
  latest: boolean;
  labels: string[];
  messages: Message[];
}

/** One label pointer: `label` on prompt `promptId` points at version `version`. */
export interface LabelPointer {
  promptId: number;
  prompt: string;
  label: string;
  version: number;
  archived: boolean;
}

export interface LabelRepository {
  /** Every pointer of these prompts, by prompt id, labels in name order. */
  ofPrompts(promptIds: number[]): Promise<Map<number, { label: string; version: number }[]>>;
  /** Pointers of `label` (on the named prompts only, when given), in prompt name order. */
  carrying(label: string, prompts?: string[]): Promise<LabelPointer[]>;
  /** Every label in use, with how many prompts carry it, in label order. */
  counts(): Promise<{ label: string; prompts: number }[]>;
  /**
   * Points each (prompt, label) at a version by number, or removes it (null), and bumps
   * the prompt's revision. Every version must exist.
   */
  move(items: { promptId: number; label: string; number: number | null }[], at: Date): Promise<void>;
}

export interface ResourceFields {
  uri: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  text: string | null;
  blob: Uint8Array | null;
  size: number;
  visibility: ResourceVisibility;
}

export interface TemplateFields {
  uriTemplate: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string;
  text: string;
}

export interface ResourceRepository {
  /** `visibility`: only resources with it (MCP lists the public ones). */
  list(opts: { q?: string; afterUri?: string; limit: number; visibility?: ResourceVisibility }): Promise<Resource[]>;
  byId(id: number): Promise<ResourceWithContent | null>;
  byUri(uri: string): Promise<ResourceWithContent | null>;
  usage(id: number, uri: string): Promise<ResourceUsage[]>;
  /** What version validation needs to know about the stored resources with these URIs. */
  info(uris: string[]): Promise<Map<string, StoredResourceInfo>>;
  /** Stored URIs starting with `prefix`, in order, at most `limit`. */
  uris(prefix: string, limit: number, visibility?: 'public' | 'bound'): Promise<string[]>;
  /** Inserts the resource and points bindings saved earlier under its URI at it. */
  insert(fields: ResourceFields): Promise<Resource>;
  update(id: number, fields: ResourceFields): Promise<Resource>;
  remove(id: number): Promise<void>;
}

export interface TemplateRepository {
  list(): Promise<ResourceTemplate[]>;
  byId(id: number): Promise<ResourceTemplate | null>;
  exists(uriTemplate: string): Promise<boolean>;
  insert(fields: TemplateFields): Promise<ResourceTemplate>;
  update(id: number, fields: TemplateFields): Promise<ResourceTemplate>;
  remove(id: number): Promise<void>;
}

/** What a token is stored with besides its name and hash (docs/access.md). */
export interface TokenGrant {
  kind: TokenKind;
  /** admin tokens */
  role: Role | null;
  /** mcp tokens */
  scope: McpScope | null;
}

export interface TokenRepository {
  insert(fields: { name: string; prefix: string; hash: string } & TokenGrant & TokenRates): Promise<TokenInfo>;
  list(): Promise<TokenInfo[]>;
  /** Active (unrevoked) tokens of one kind. */
  countActive(kind?: TokenKind): Promise<number>;
  byId(id: number): Promise<TokenInfo | null>;
  byName(name: string): Promise<TokenInfo | null>;
  namesStartingWith(prefix: string): Promise<string[]>;
  /** Tokens whose shown prefix starts with `prefix`, at most `limit`. */
  matchPrefix(prefix: string, limit: number): Promise<TokenInfo[]>;
  revoke(id: number, at: Date): Promise<TokenInfo>;
  /** Sets lastUsedAt to `at` unless it is already later. */
  touch(id: number, at: Date): Promise<void>;
  byHash(hash: string): Promise<({ id: number; name: string; revokedAt: Date | null; mcpRatePerMinute: number | null; writeRatePerMinute: number | null } & TokenGrant) | null>;
  /** Sets the token's own rate limits (undefined: unchanged, null: the instance setting). */
  setRates(id: number, rates: TokenRates): Promise<TokenInfo>;
}

/** A token's own rate limits, per minute (null: the instance setting applies). */
export interface TokenRates {
  mcpRatePerMinute?: number | null;
  writeRatePerMinute?: number | null;
}

/** The activity log's filters; each one is an equality on an indexed column. */
export interface EventFilter {
  actor?: string;
  /** any of these actions */
  actions?: string[];
  /** none of these actions */
  exceptActions?: string[];
  entity?: ChangeEvent['entity'];
  entityKey?: string;
  /** at or after (the audit's time range; `at` is not indexed, the id order bounds the scan) */
  from?: Date;
  /** strictly before */
  to?: Date;
}

export interface EventRepository {
  append(events: NewChangeEvent[], at?: Date): Promise<void>;
  /** Matching events with ids below `beforeId`, newest first. */
  newest(filter: EventFilter, opts: { beforeId?: number; limit: number }): Promise<ChangeEvent[]>;
  after(id: number, limit: number): Promise<ChangeEvent[]>;
  lastId(): Promise<number>;
  /** One entity's events with one of `actions`, newest first, older than id `before`. */
  ofEntity(entity: ChangeEvent['entity'], key: string, opts: { actions: readonly string[]; before?: number; limit: number }): Promise<ChangeEvent[]>;
}

export interface WebhookFields {
  url: string;
  events: string[];
  label: string | null;
  active: boolean;
  secret: string;
}

/** What a delivery attempt needs, read after its claim. */
export interface DeliveryJob {
  delivery: WebhookDelivery;
  webhook: StoredWebhook;
  event: ChangeEvent | null;
}

/** The outcome of one attempt; applied only if the attempt still holds its claim. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  lastError: string | null;
  lastStatusCode: number | null;
  deliveredAt: Date | null;
}

export interface WebhookRepository {
  insert(fields: WebhookFields & { sinceEventId: number }): Promise<StoredWebhook>;
  list(): Promise<StoredWebhook[]>;
  count(): Promise<number>;
  byId(id: number): Promise<StoredWebhook | null>;
  update(id: number, fields: Partial<WebhookFields> & { sinceEventId?: number }): Promise<StoredWebhook>;
  remove(id: number): Promise<void>;
  /** Active webhooks, for matching new change events. */
  active(): Promise<StoredWebhook[]>;
  /** Newest first, ids below `beforeId`. */
  deliveries(webhookId: number, opts: { beforeId?: number; limit: number }): Promise<WebhookDelivery[]>;
  delivery(webhookId: number, id: number): Promise<WebhookDelivery | null>;
  /** Creates pending deliveries due at `at`; returns their ids. */
  enqueue(items: { webhookId: number; eventId: number }[], at: Date): Promise<number[]>;
  /** The last change log id matched against webhooks (null before the first scan). */
  cursor(): Promise<number | null>;
  setCursor(eventId: number): Promise<void>;
  /** Pending deliveries of active webhooks due at `now`, oldest first; of one webhook if given. */
  due(now: Date, limit: number, webhookId?: number): Promise<{ id: number; attempts: number }[]>;
  /** The active webhooks that have a delivery due at `now`. */
  dueWebhooks(now: Date): Promise<number[]>;
  /**
   * Takes one attempt of a due delivery: counts the attempt and pushes nextAttemptAt to
   * `leaseUntil`, only if it is still pending, due and at `attempts`. False when another
   * dispatcher got there first.
   */
  claim(id: number, attempts: number, now: Date, leaseUntil: Date): Promise<boolean>;
  job(id: number): Promise<DeliveryJob | null>;
  /** Records an attempt's outcome if the delivery is still at `attempts` (the claim). */
  finish(id: number, attempts: number, outcome: DeliveryOutcome): Promise<boolean>;
  /** Makes a delivery pending and due now, with a fresh attempt budget. */
  reset(id: number, now: Date): Promise<WebhookDelivery>;
  /** Deletes finished deliveries last touched before `before`; returns how many. */
  prune(before: Date): Promise<number>;
}

/**
 * Usage buckets (src/core/usage). Every flush appends rows and every query adds them up,
 * so instances sharing a database never update each other's rows.
 */
export interface UsageRepository {
  /** One batched insert; a served row without a promptId gets the id of the prompt of that name. */
  append(rows: UsageRow[]): Promise<void>;
  /** Rows matching the filter, summed per (bucket start, prompt, version, label, client, client version, outcome); prompts under their current names. */
  sums(filter: UsageFilter): Promise<UsageSum[]>;
  /** The ids of the prompts with these names (deleted ones included; absent: no such prompt). */
  promptIds(names: string[]): Promise<Map<string, number>>;
  /** The current name of each of these prompts (absent: purged). */
  promptNames(ids: number[]): Promise<Map<number, string>>;
  /** The prompt id of each of these version ids (absent: no such version). */
  promptIdsOfVersions(versionIds: number[]): Promise<Map<number, number>>;
  /** Replaces minute rows that start before `before` with hour rows; returns how many minute rows went. */
  rollUp(before: Date): Promise<number>;
  /** Deletes rows that start before `before`; returns how many. */
  prune(before: Date): Promise<number>;
  /** When each of these prompts (ids) was last served, from stored rows (absent: never). */
  lastServed(promptIds: number[]): Promise<Map<number, Date>>;
}

/** One set of repositories: outside a transaction (reads) or inside one (writes). */
export interface Repositories {
  prompts: PromptRepository;
  resources: ResourceRepository;
  templates: TemplateRepository;
  tokens: TokenRepository;
  events: EventRepository;
  labels: LabelRepository;
  webhooks: WebhookRepository;
  usage: UsageRepository;
}

/** One served prompt of a label's view: its name and the id of the version the label points at. */
export interface ServedPointer {
  name: string;
  versionId: number;
  /** The prompt's tags (MCP token scopes filter on them); sorted. */
  tags: string[];
}

/**
 * The served catalog's source: per label view (a label, or `latest`), each unarchived
 * prompt carrying it, as a pointer to a version, and each version as one compact document.
 */
export interface ServedSource {
  /** The view's prompts with their documents (every one, or the named ones), in name order. */
  load(label: string, names?: string[]): Promise<(ServedPointer & { doc: string })[]>;
  /**
   * Every prompt of the view with its document, in name order, handed to `each` a
   * batch at a time: what the caller does not keep can be collected while the rest loads.
   */
  loadEach(label: string, each: (batch: (ServedPointer & { doc: string })[]) => void): Promise<void>;
  /** The view's pointers only (every one, or the named ones), in name order. */
  pointers(label: string, names?: string[]): Promise<ServedPointer[]>;
  /** Documents of these versions. */
  docs(versionIds: number[]): Promise<Map<number, string>>;
  /** Labels some prompt carries. */
  labels(): Promise<string[]>;
  /** Version `number` of a served (unarchived, undeleted) prompt: an include pinned to a version. */
  pinned(name: string, number: number): Promise<{ versionId: number; doc: string } | null>;
  /** A document from load() as a Version; cheap enough to run on demand. */
  decode(doc: string): Version;
  /**
   * The start of a document that holds its title and description, raw (JSON text, not
   * decoded): what a list_prompts search reads before decoding a candidate, instead of
   * the whole document with its messages. Absent: the whole document.
   */
  searchHead?(doc: string): string;
}

/** A database connection pool, as a metrics scrape sees it (PostgreSQL; SQLite has none). */
export interface PoolStats {
  /** connections open (idle + in use) */
  total: number;
  idle: number;
  /** requests queued for a connection */
  waiting: number;
  /** the pool's size limit */
  max: number;
}

/** Which database a store runs on, as reported by /admin/v1/server-info (never branched on in core). */
export type DatabaseKind = 'sqlite' | 'postgresql';

/** What an import read from one prompt file (src/core/services/import-hashes.ts). */
export interface ImportHashRow {
  /** relative to the library root, `/`-separated */
  file: string;
  hash: string;
  /** media files the prompt file names, relative to the root */
  deps: string[];
  promptId: number;
  name: string;
  /** the prompt's revision right after the import */
  revision: number;
  /** the stat fingerprint of the file and its media files ('' when not trusted: too fresh) */
  stat: string;
}

/** A prompt's identity and how far it has moved, for the import hashes. */
export interface PromptRevision {
  id: number;
  revision: number;
  latestVersion: number;
}

/** A recorded row with its prompt as it is now (absent: purged, soft-deleted or renamed). */
export interface ImportHashState extends ImportHashRow {
  current?: PromptRevision;
}

export interface Store {
  /** For /readyz and server-info. */
  readonly kind: DatabaseKind;
  /** The database's URL as it may be shown to a person (absolute SQLite path, no password). */
  readonly displayUrl: string;
  /** Opened read-only (nothing may be written: usage counts are dropped). */
  readonly readOnly?: boolean;
  /** Reads outside any transaction. */
  readonly read: Repositories;
  /**
   * Runs `fn` as one write transaction: writers go one at a time, the change events it
   * appends commit with it, and retryable database failures run it again (so `fn`
   * must do nothing but database work). Failures left over are domain errors.
   */
  write<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  readonly served: ServedSource;
  /** A value that changes when another connection commits. */
  changeMarker(): Promise<unknown>;
  /** Default poll interval for changeMarker. */
  readonly pollMs: number;
  /** Push wake-ups from other processes, where the database has them. */
  listen(onWake: () => void, onError: (e: unknown) => void): { close(): Promise<void> } | undefined;
  /** Reads `key`, storing `make()` first when absent. */
  setting(key: string, make: () => string): Promise<string>;
  /** Reads `key` (undefined when absent). */
  readSetting(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing any earlier value. */
  writeSetting(key: string, value: string): Promise<void>;
  /** The import hashes recorded for a library root (absolute path). */
  loadImportHashes(root: string): Promise<ImportHashState[]>;
  /** Live prompts' ids, revisions and latest version numbers, by name (missing names absent). */
  promptRevisions(names: string[]): Promise<Map<string, PromptRevision>>;
  /** Replaces the rows of these files (one transaction) and deletes the rows of `drop`. */
  saveImportHashes(root: string, rows: ImportHashRow[], drop: string[]): Promise<void>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  /** The connection pool's counts, or null for a database without a pool (SQLite). */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}
