// The activity log: the change log read newest first, filtered by who (the actor) and
// what (an action, a `<prefix>.*` pattern, or one prompt), for the admin UI.
import type { CursorCodec } from '../cursor.js';
import { roleAllows, type Role } from '../access.js';
import { badRequest, DomainError } from '../errors.js';
import type { EventFilter, Store } from '../ports.js';
import type { ChangeEvent, Page } from '../types.js';
import { AUDIT_ONLY_EVENTS, PING_EVENT, WEBHOOK_EVENTS, WEBHOOK_EVENT_PREFIXES } from '../webhooks/events.js';
import { clampLimit } from './prompt-service.js';
import { LIMITS } from '../schemas.js';

/** Every action the change log records. */
export const ACTIVITY_ACTIONS: readonly string[] = [...WEBHOOK_EVENTS, PING_EVENT, ...AUDIT_ONLY_EVENTS];
const TOKEN_USED = 'token.used';
/** Failed authentications, like token use, are the audit's, not the activity page's. */
const AUTH_FAILED = 'auth.failed';
/** `<prefix>.*` patterns an `action=` filter takes. */
const ACTION_PREFIXES: readonly string[] = [...WEBHOOK_EVENT_PREFIXES, 'settings', 'auth'];
/**
 * What only admins read (docs/access.md): token events carry every token's name, role
 * and MCP scope, webhook events their URLs and filters, settings events each token's
 * limits, auth events failed credentials' prefixes — the same data as the admin-only /tokens, /webhooks and /settings routes.
 */
export const ADMIN_ONLY_ACTIONS: readonly string[] = ACTIVITY_ACTIONS.filter((a) => /^(token|webhook|settings|auth)\./.test(a));

export interface ActivityQuery {
  /** exactly this actor, e.g. `token:ci-bot#3`, `admin`, `cli` */
  actor?: string;
  /** an action (`label.set`) or a pattern (`prompt.*`) */
  action?: string;
  /** only events about this prompt (by its name at the time) */
  prompt?: string;
  /** only events about this kind of entity (the audit's `entity=`) */
  entity?: ChangeEvent['entity'];
  /** with `entity`: only this one (a prompt name, resource URI, token or webhook id) */
  entityKey?: string;
  /** at or after this instant */
  from?: Date;
  /** before this instant */
  to?: Date;
  /**
   * Token use (`token.used`) is left out unless this is set or `action` names it: the
   * activity page shows changes, the audit (GET /audit) changes and use.
   */
  withUse?: boolean;
  /**
   * The caller's role: short of admin, the admin-only events are left out in the query
   * itself (so pages stay full), and asking for them by `action=` is a 403. Absent: admin.
   */
  role?: Role;
  limit?: number;
  cursor?: string;
}

export type ActivityItem = Omit<ChangeEvent, 'served'>;

/** The actions an `action=` filter stands for; a pattern becomes the list of actions it names, so the query stays an indexed IN. */
function actionsOf(action: string, withUse = false): string[] {
  const m = /^([a-z_]+)\.\*$/.exec(action);
  if (m && ACTION_PREFIXES.includes(m[1]!)) return ACTIVITY_ACTIONS.filter((a) => a.startsWith(`${m[1]}.`) && (withUse || a !== TOKEN_USED));
  if (ACTIVITY_ACTIONS.includes(action)) return [action];
  throw badRequest(`unknown action "${action}": use one of ${ACTIVITY_ACTIONS.join(', ')}, or a pattern ${ACTION_PREFIXES.map((p) => `${p}.*`).join(', ')}`, [
    { path: 'action', message: 'unknown action' },
  ]);
}

/**
 * prompt.deleted keeps a snapshot of the deleted prompt's served and latest versions in
 * the change log (content, possibly inline media); a listing carries only its summary.
 */
function slim(details: ChangeEvent['details']): ChangeEvent['details'] {
  const snap = details?.snapshot;
  if (!snap || typeof snap !== 'object') return details;
  const { served: _s, latest: _l, ...summary } = snap as Record<string, unknown>;
  return { ...details, snapshot: summary };
}

export function createActivityService({ store, cursors }: { store: Pick<Store, 'read'>; cursors: CursorCodec }) {
  return {
    async list(q: ActivityQuery): Promise<Page<ActivityItem>> {
      const limit = clampLimit(q.limit);
      const admin = roleAllows(q.role ?? 'admin', 'admin');
      let actions = q.action !== undefined ? actionsOf(q.action, q.withUse) : undefined;
      if (actions && !admin) {
        actions = actions.filter((a) => !ADMIN_ONLY_ACTIONS.includes(a));
        if (!actions.length) {
          throw new DomainError('forbidden', `"${q.action}" events need the admin role; this token is ${q.role === 'editor' ? 'an' : 'a'} ${q.role}`, [{ path: 'action', message: 'admin only' }]);
        }
      }
      const except = admin ? (q.withUse ? undefined : [TOKEN_USED, AUTH_FAILED]) : [...new Set([TOKEN_USED, AUTH_FAILED, ...ADMIN_ONLY_ACTIONS])];
      const filter: EventFilter = {
        ...(q.actor !== undefined ? { actor: q.actor } : {}),
        ...(actions ? { actions } : except ? { exceptActions: except } : {}),
        ...(q.entity !== undefined ? { entity: q.entity } : {}),
        ...(q.entityKey !== undefined ? { entityKey: q.entityKey } : {}),
        ...(q.prompt !== undefined ? { entity: 'prompt' as const, entityKey: q.prompt } : {}),
        ...(q.from !== undefined ? { from: q.from } : {}),
        ...(q.to !== undefined ? { to: q.to } : {}),
      };
      const beforeId = q.cursor ? cursors.decode<number>('activity', q.cursor) : undefined;
      const rows = await store.read.events.newest(filter, { beforeId: typeof beforeId === 'number' ? beforeId : undefined, limit: limit + 1 });
      const page = rows.slice(0, limit).map(({ served: _served, details, ...e }) => ({ ...e, details: slim(details) }));
      return { items: page, nextCursor: rows.length > limit ? cursors.encode('activity', page.at(-1)!.id) : null };
    },
    /**
     * Every matching event from `q.cursor` on, newest first, page by page through
     * list() (the audit's CSV export), stopping after `max`.
     */
    async *each(q: Omit<ActivityQuery, 'limit'>, max: number): AsyncGenerator<ActivityItem> {
      let cursor = q.cursor;
      let left = max;
      while (left > 0) {
        const page = await this.list({ ...q, cursor, limit: Math.min(left, LIMITS.pageSizeMax) });
        for (const item of page.items) yield item;
        left -= page.items.length;
        if (!page.nextCursor) return;
        cursor = page.nextCursor;
      }
    },
  };
}
