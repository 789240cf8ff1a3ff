// Calls for the activity log (/admin/v1/activity), through api.ts's typed client.
import { client, request } from './api';
import type { Ok } from './types';

export type ActivityItem = Ok<typeof client.activity.$get>['items'][number];
export interface ActivityFilters { actor?: string; action?: string; prompt?: string }

const data = <T>(p: Promise<{ data: T }>) => p.then((r) => r.data);
const nonEmpty = (o: Record<string, string | undefined>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v)) as Record<string, string>;

export const activityApi = {
  list: (f: ActivityFilters, cursor?: string | null, limit = 50, signal?: AbortSignal) =>
    data(request(client.activity.$get, { query: nonEmpty({ ...f, cursor: cursor ?? undefined, limit: String(limit) }) }, { signal })),
};

/** What the "What" filter offers: groups (`prompt.*`) and single actions, as the server names them. */
export const ACTION_GROUPS: { label: string; value: string; actions: string[] }[] = [
  { label: 'Prompts', value: 'prompt.*', actions: ['prompt.created', 'prompt.activated', 'prompt.rolled_back', 'prompt.deactivated', 'prompt.archived', 'prompt.unarchived', 'prompt.renamed', 'prompt.deleted', 'prompt.restored', 'prompt.purged'] },
  { label: 'Versions', value: 'version.*', actions: ['version.created'] },
  { label: 'Labels', value: 'label.*', actions: ['label.set', 'label.removed'] },
  { label: 'Promotions', value: 'labels.*', actions: ['labels.promoted'] },
  { label: 'Resources', value: 'resource.*', actions: ['resource.created', 'resource.updated', 'resource.deleted'] },
  { label: 'Resource templates', value: 'resource_template.*', actions: ['resource_template.created', 'resource_template.updated', 'resource_template.deleted'] },
  { label: 'Tokens', value: 'token.*', actions: ['token.created', 'token.revoked'] },
  { label: 'Webhooks', value: 'webhook.*', actions: ['webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.ping'] },
];
