import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { LabelNameSchema, LIMITS, TestExpectationSchema } from '../../core/schemas.js';
import { NameParamSchema, ProblemSchema, RenderedPromptSchema, errorResponses, json } from '../schemas.js';

const tags = ['Prompts'];
const VersionParamSchema = NameParamSchema.extend({ n: z.coerce.number().int().min(1).max(LIMITS.intMax).meta({ param: { name: 'n', in: 'path' } }) });
const FieldErrorSchema = z.object({ path: z.string(), message: z.string() }).strict();

export const CheckInputSchema = z
  .object({ label: LabelNameSchema.optional().meta({ description: 'the label includes resolve under (default: ?label=, else production)' }) })
  .strict()
  .meta({ id: 'CheckInput' });

export const ExpectationResultSchema = z
  .object({
    expectation: TestExpectationSchema,
    passed: z.boolean(),
    message: z.string().nullable().meta({ description: 'why it failed; null when it passed' }),
  })
  .strict()
  .meta({ id: 'ExpectationResult' });

export const TestCaseResultSchema = z
  .object({
    name: z.string(),
    arguments: z.record(z.string(), z.string()),
    passed: z.boolean(),
    output: RenderedPromptSchema.nullable().meta({ description: 'the rendered prompt, as prompts/get returns it; null when rendering failed' }),
    text: z.string().nullable().meta({ description: 'what the expectations were judged on: every message\'s text joined by a blank line' }),
    error: z.object({ message: z.string(), errors: z.array(FieldErrorSchema) }).strict().nullable().meta({ description: 'why rendering failed' }),
    expectations: z.array(ExpectationResultSchema),
  })
  .strict()
  .meta({ id: 'TestCaseResult' });

export const CheckReportSchema = z
  .object({
    prompt: z.string(),
    version: z.number().int(),
    label: z.string(),
    passed: z.boolean().meta({ description: 'no lint error and every test case passed' }),
    lint: z.object({ errors: z.array(FieldErrorSchema), warnings: z.array(FieldErrorSchema) }).strict(),
    tests: z.array(TestCaseResultSchema),
  })
  .strict()
  .meta({ id: 'CheckReport' });

export const check = createRoute({
  method: 'post', path: '/prompts/{name}/versions/{n}/check', tags,
  summary: "Run a version's lint and every test case (includes resolved under a label); each result with the rendered output. Writes nothing",
  request: {
    params: VersionParamSchema,
    query: z.object({ label: LabelNameSchema.optional().meta({ description: 'the label includes resolve under (default production)' }) }),
    body: { required: false, content: { 'application/json': { schema: CheckInputSchema } } },
  },
  responses: {
    200: json(CheckReportSchema, 'The checks, passed or not (a failing check is a 200 with passed: false)'),
    400: { description: 'Invalid ?label=', content: { 'application/problem+json': { schema: ProblemSchema } } },
    401: errorResponses[401], 404: errorResponses[404],
    422: { description: 'Invalid label or body', content: { 'application/problem+json': { schema: ProblemSchema } } },
  },
});
