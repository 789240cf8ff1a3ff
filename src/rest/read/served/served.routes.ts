import { createRoute } from '@hono/zod-openapi';
import { NameParamSchema, body, errorResponses, json } from '../../schemas.js';
import { IfNoneMatchSchema, PromptDefinitionSchema, RenderBodySchema, RenderedSchema, SelectorQuerySchema, problem } from '../schemas.js';

const tags = ['Prompts'];
const notModified = { description: 'Not modified: the If-None-Match ETag is current (no body)' };
const notFound = problem('No such prompt (or it is deleted or archived), label, or version; `errors` names which');
const badRequest = problem('Invalid label or version (or both given)');
const forbidden = problem('An app token asked for another label than its own, or for a pinned version (`errors` names which)');

export const definition = createRoute({
  method: 'get', path: '/prompts/{name}', tags,
  summary: "A served version's definition, by label (default `production`) or pinned version; strong ETag, 304 on If-None-Match",
  request: { params: NameParamSchema, query: SelectorQuerySchema, headers: IfNoneMatchSchema },
  responses: { 200: json(PromptDefinitionSchema, 'The definition'), 304: notModified, 400: badRequest, 401: errorResponses[401], 403: forbidden, 404: notFound },
});

export const render = createRoute({
  method: 'post', path: '/prompts/{name}/render', tags,
  summary: 'Render a served version with arguments, as MCP prompts/get would; the ETag hashes the output, so 304 on If-None-Match when nothing it embeds changed',
  request: { params: NameParamSchema, query: SelectorQuerySchema, headers: IfNoneMatchSchema, ...body(RenderBodySchema) },
  responses: {
    200: json(RenderedSchema, 'The rendered messages'), 304: notModified, 400: badRequest, 401: errorResponses[401], 403: forbidden, 404: notFound,
    413: problem('The request body is too large'), 422: problem('Invalid arguments (unknown, missing, not a choice, too long), each named in `errors`'),
  },
});
