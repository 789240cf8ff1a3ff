// REST shapes come from the server's route definitions through Hono's typed client
// (src/rest/admin-api-type.ts): type-only imports, erased from the bundle. Only shapes
// the OpenAPI document does not describe are written by hand here.
import type { hc, InferRequestType, InferResponseType } from 'hono/client';
import type { AdminApi } from '../../src/rest/admin-api-type';

export type Client = ReturnType<typeof hc<AdminApi>>;
/** The body of an endpoint's success response. */
export type Ok<E> = InferResponseType<E, 200 | 201>;
/** The JSON request body of an endpoint. */
export type Body<E> = InferRequestType<E> extends { json: infer J } ? J : never;

type Prompts = Client['prompts'];
type PromptPath = Prompts[':name'];

export type PromptDetail = Ok<PromptPath['$get']>;
export type Version = PromptDetail['latest'];
export type PromptSummary = Ok<Prompts['$get']>['items'][number];
export type VersionSummary = Ok<PromptPath['versions']['$get']>['items'][number];
export type RenderResult = Ok<PromptPath['render']['$post']>;
export type RenderedContent = RenderResult['messages'][number]['content'];
export type CreatePromptBody = Body<Prompts['$post']>;
export type VersionBody = Body<PromptPath['versions']['$post']>;

export type Message = Version['messages'][number];
export type Content = Message['content'];
export type Argument = Version['arguments'][number];
export type Icon = NonNullable<Version['icons']>[number];
/** An include message carries none (it is replaced by the included prompt's messages). */
export type Annotations = NonNullable<Extract<Content, { annotations?: unknown }>['annotations']>;
export type IncludeContent = Extract<Content, { type: 'include' }>;
export type Role = Message['role'];
export type ContentType = Content['type'];

export type LabelMove = Ok<PromptPath['label-history']['$get']>['items'][number];
export type LabelChange = Ok<Client['labels'][':from']['promote']['$post']>['changes'][number];
export type DeletedPrompt = PromptSummary;

export type Resource = Ok<Client['resources']['$get']>['items'][number];
export type ResourceDetail = Ok<Client['resources'][':id']['$get']>;
export type ResourceBody = Body<Client['resources']['$post']>;
export type ResourceTemplate = Ok<Client['resource-templates']['$get']>['items'][number];
export type ResourceTemplateBody = Body<Client['resource-templates']['$post']>;

type ServerProblem = InferResponseType<PromptPath['$get'], 404>;
export type FieldError = NonNullable<ServerProblem['errors']>[number];
/** A server problem, or one the UI makes up (network error, a body that is not JSON). */
export type Problem = Partial<ServerProblem> & { status: number };

/** A `change` event of GET /events (an event stream, which the OpenAPI document describes only as text). */
export interface ChangeEvent {
  id: string | number;
  at: string;
  actor: string | null;
  action: string;
  entity: string;
  entityKey: string;
  served: boolean;
}
