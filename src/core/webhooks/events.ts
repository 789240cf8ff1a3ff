// Which change log events a webhook may subscribe to, and which webhooks an event
// matches. Names are validated against a documented list (docs/webhooks.md) so a typo
// is a 422, not a webhook that silently never fires.
import type { ChangeEvent } from '../types.js';

/** Every event name a webhook can name exactly. */
export const WEBHOOK_EVENTS = [
  'prompt.created', 'version.created', 'prompt.activated', 'prompt.rolled_back', 'prompt.deactivated',
  'prompt.archived', 'prompt.unarchived', 'prompt.renamed', 'prompt.deleted', 'prompt.restored', 'prompt.purged',
  'label.set', 'label.removed', 'labels.promoted',
  'resource.created', 'resource.updated', 'resource.deleted',
  'resource_template.created', 'resource_template.updated', 'resource_template.deleted',
  'token.created', 'token.updated', 'token.revoked',
  'webhook.created', 'webhook.updated', 'webhook.deleted',
] as const;

/** `<prefix>.*` patterns: every event whose name starts with the prefix and a dot. */
export const WEBHOOK_EVENT_PREFIXES = ['prompt', 'version', 'label', 'labels', 'resource', 'resource_template', 'token', 'webhook'] as const;

/** Sent only to the webhook it tests (POST /webhooks/{id}/ping); never matched by a subscription. */
export const PING_EVENT = 'webhook.ping';

/**
 * Change log entries kept for the audit alone (docs/audit.md): a token's first use in
 * an hour, a settings change and failed authentications (per minute, address and prefix). No subscription matches them, `*` included, so
 * webhooks send what they sent before these existed.
 */
export const AUDIT_ONLY_EVENTS = ['token.used', 'settings.updated', 'auth.failed'] as const;
const auditOnly = new Set<string>(AUDIT_ONLY_EVENTS);

const exact = new Set<string>(WEBHOOK_EVENTS);
const prefixes = new Set<string>(WEBHOOK_EVENT_PREFIXES);

/** Null when `name` is a valid subscription, else why not. */
export function eventNameProblem(name: string): string | null {
  if (name === '*' || exact.has(name)) return null;
  const m = /^([a-z_]+)\.\*$/.exec(name);
  if (m && prefixes.has(m[1]!)) return null;
  return `unknown event "${name}": use "*", one of ${WEBHOOK_EVENTS.join(', ')}, or a pattern ${WEBHOOK_EVENT_PREFIXES.map((p) => `${p}.*`).join(', ')}`;
}

export function subscribes(events: readonly string[], action: string): boolean {
  if (action === PING_EVENT || auditOnly.has(action)) return false;
  return events.some((p) => p === '*' || p === action || (p.endsWith('.*') && action.startsWith(p.slice(0, -1))));
}

/**
 * The label views an event changes, as the label writers record them
 * (src/core/services/label-moves.ts, prompt-bin.ts): `details.label` (label.set,
 * label.removed, labels.promoted's target, the production moves of the `active` API)
 * and `details.labels` (a list: `latest` for a new version; `latest` and the prompt's
 * labels for a delete or restore). `details.from`/`details.to` are version numbers, or a
 * rename's prompt names, never labels. Other events carry none.
 */
export function labelsOf(e: Pick<ChangeEvent, 'details'>): string[] {
  const d = e.details ?? {};
  const out: string[] = [];
  if (typeof d.label === 'string') out.push(d.label);
  if (Array.isArray(d.labels)) for (const v of d.labels) if (typeof v === 'string') out.push(v);
  return out;
}

export function matches(hook: { events: readonly string[]; label: string | null; sinceEventId: number }, e: ChangeEvent): boolean {
  if (e.id <= hook.sinceEventId || !subscribes(hook.events, e.action)) return false;
  return hook.label === null || labelsOf(e).includes(hook.label);
}
