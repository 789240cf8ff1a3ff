import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { LabelNameSchema, PromoteInputSchema, SetLabelInputSchema } from '../../core/schemas.js';
import { ListQuerySchema, NameParamSchema, ProblemSchema, body, errorResponses, json, page } from '../schemas.js';

const tags = ['Labels'];
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemSchema } } });
const LabelParamSchema = NameParamSchema.extend({ label: LabelNameSchema.meta({ param: { name: 'label', in: 'path' } }) });
const FromParamSchema = z.object({ from: LabelNameSchema.meta({ param: { name: 'from', in: 'path' } }) });
const IfMatchSchema = z.object({ 'if-match': z.string().max(100).optional() });

export const LabelPointerSchema = z.object({ label: z.string(), version: z.number().int() }).meta({ id: 'LabelPointer' });
const LabelListSchema = z.object({ items: z.array(LabelPointerSchema) }).meta({ id: 'LabelList' });
const LabelSummarySchema = z.object({ items: z.array(z.object({ label: z.string(), prompts: z.number().int() })) }).meta({ id: 'LabelSummaryList' });
export const LabelImpactSchema = z
  .object({
    dependents: z.array(z.string()).meta({ description: 'prompts served under the label that include a moved prompt: their rendering changes too' }),
    message: z.string().meta({ example: 'this changes 14 production prompts that include it' }),
  })
  .meta({ id: 'LabelImpact' });
const LabelSetSchema = LabelPointerSchema.extend({ impact: LabelImpactSchema }).meta({ id: 'LabelSet' });
const PromotionSchema = z
  .object({
    changes: z.array(z.object({ prompt: z.string(), from: z.number().int().nullable(), to: z.number().int() })),
    impact: LabelImpactSchema.optional().meta({ description: 'dry runs: the prompts including a moved one whose rendering changes' }),
  })
  .meta({ id: 'Promotion' });

export const listForPrompt = createRoute({
  method: 'get', path: '/prompts/{name}/labels', tags, summary: "The prompt's labels and the versions they point at",
  request: { params: NameParamSchema },
  responses: { 200: json(LabelListSchema, 'Labels'), 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});

export const set = createRoute({
  method: 'put', path: '/prompts/{name}/labels/{label}', tags,
  summary: 'Point a label at a version (If-Match guards against moving a prompt someone else changed)',
  request: { params: LabelParamSchema, headers: IfMatchSchema, ...body(SetLabelInputSchema) },
  responses: {
    200: json(LabelSetSchema, 'The label now points at the version; `impact`: the prompts including it whose rendering changes'), 401: errorResponses[401], 403: problem('The label is protected'),
    404: errorResponses[404], 409: problem('A protected label: the version\'s checks fail (errors lists them); an admin may send force: true'), 412: problem('The If-Match ETag is stale'), 422: problem('Invalid label name (or `latest`, which cannot be set) or body'),
  },
});

export const remove = createRoute({
  method: 'delete', path: '/prompts/{name}/labels/{label}', tags, summary: 'Remove a label from the prompt',
  request: { params: LabelParamSchema, headers: IfMatchSchema },
  responses: {
    204: { description: 'Removed' }, 401: errorResponses[401], 403: problem('The label is protected'), 404: errorResponses[404],
    412: problem('The If-Match ETag is stale'), 422: problem('Invalid label name'),
  },
});

const LabelMoveSchema = z
  .object({
    id: z.number().int(), at: z.string(), actor: z.string(), action: z.string(), label: z.string(),
    from: z.number().int().nullable(), to: z.number().int().nullable(),
    source: z.string().nullable().meta({ description: 'labels.promoted: the label copied from' }),
  })
  .meta({ id: 'LabelMove' });

export const history = createRoute({
  method: 'get', path: '/prompts/{name}/label-history', tags,
  summary: "The prompt's label moves from the change log, newest first (keyset-paginated)",
  request: { params: NameParamSchema, query: ListQuerySchema },
  responses: { 200: json(page(LabelMoveSchema, 'LabelMoveList'), 'Label moves'), 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
});

export const summary = createRoute({
  method: 'get', path: '/labels', tags, summary: 'Every label in use, with how many prompts carry it',
  responses: { 200: json(LabelSummarySchema, 'Labels'), 401: errorResponses[401] },
});

export const promote = createRoute({
  method: 'post', path: '/labels/{from}/promote', tags,
  summary: "A release: copy the `from` label's pointers onto `to` for every prompt carrying `from` (or the named ones), in one transaction",
  request: { params: FromParamSchema, ...body(PromoteInputSchema) },
  responses: {
    200: json(PromotionSchema, 'The changes made (or, with dryRun, that would be made)'), 401: errorResponses[401], 403: problem('The target label is protected'),
    404: problem('An unknown `from` label (the problem names the known labels; `to` may be new), or a named prompt'), 409: problem('A protected target: checks of a moved prompt (or of one that includes it) fail; nothing is promoted'), 422: errorResponses[422],
  },
});
