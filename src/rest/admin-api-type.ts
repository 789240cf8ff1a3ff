// The admin API's routes as one type, for Hono's typed client (`hc` in admin/src/api.ts).
// Built from the route definitions alone (no handlers, no core, no Node APIs), so the
// admin UI's type check reaches only route and schema files; admin-api.ts asserts that
// it describes exactly the routes the real app serves.
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type * as prompts from './prompts/prompts.routes.js';
import type * as resources from './resources/resources.routes.js';
import type * as resourceTemplates from './resource-templates/resource-templates.routes.js';
import type * as events from './events/events.routes.js';
import type * as serverInfo from './server-info/server-info.routes.js';
import type * as webhooks from './webhooks/webhooks.routes.js';
import type * as labels from './labels/labels.routes.js';
import type * as importFiles from './import/import.routes.js';
import type * as tokens from './tokens/tokens.routes.js';
import type * as activity from './activity/activity.routes.js';
import type * as audit from './audit/audit.routes.js';
import type * as settings from './settings/settings.routes.js';
import type * as usage from './usage/usage.routes.js';
import type * as includes from './includes/includes.routes.js';
import type * as checks from './checks/checks.routes.js';

declare const app: OpenAPIHono;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SchemaOf<A> = A extends OpenAPIHono<any, infer S, any> ? S : never;
/** What `app.openapi(route, handler)` adds to the app's type; only the route decides it. */
type RouteSchema<R> = R extends RouteConfig ? SchemaOf<ReturnType<typeof app.openapi<R>>> : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** A routes module's route definitions (its exported schemas left out). */
type RoutesOnly<M> = { [K in keyof M as M[K] extends RouteConfig ? K : never]: M[K] };
type SchemaOfRoutes<M> = UnionToIntersection<{ [K in keyof M]: RouteSchema<M[K]> }[keyof M]>;

/** Every JSON route of /admin/v1 (the event stream is read with EventSource, not the client). */
export type AdminApiSchema = SchemaOfRoutes<typeof prompts> & SchemaOfRoutes<typeof resources> & SchemaOfRoutes<typeof resourceTemplates>
  & SchemaOfRoutes<Pick<typeof events, 'ticket'>>
  & SchemaOfRoutes<typeof serverInfo>
  & SchemaOfRoutes<RoutesOnly<typeof webhooks>>
  & SchemaOfRoutes<RoutesOnly<typeof labels>>
  & SchemaOfRoutes<RoutesOnly<typeof importFiles>>
  & SchemaOfRoutes<RoutesOnly<typeof tokens>>
  & SchemaOfRoutes<RoutesOnly<typeof activity>>
  & SchemaOfRoutes<RoutesOnly<typeof audit>>
  & SchemaOfRoutes<RoutesOnly<typeof settings>>

  & SchemaOfRoutes<RoutesOnly<typeof usage>>
  & SchemaOfRoutes<RoutesOnly<typeof includes>>
  & SchemaOfRoutes<RoutesOnly<typeof checks>>;
export type AdminApi = OpenAPIHono<{}, AdminApiSchema>;
