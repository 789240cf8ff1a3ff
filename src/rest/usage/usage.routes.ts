import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { LabelNameSchema, safeString, StoredPromptNameSchema } from '../../core/schemas.js';
import { NameParamSchema, errorResponses, json } from '../schemas.js';

const tags = ['Usage'];
const OUTCOMES = ['ok', 'invalid_arguments', 'not_found', 'error'] as const;

const isoInstant = (what: string) =>
  z.iso.datetime({ offset: true }).optional().meta({ description: `${what} (ISO 8601 instant, e.g. 2026-11-24T00:00:00Z)` });

const RangeQuerySchema = z.object({
  from: isoInstant('start of the range; default: `to` minus 30 days'),
  to: isoInstant('end of the range; default: now'),
});

export const UsageQuerySchema = RangeQuerySchema.extend({
  prompt: StoredPromptNameSchema.optional().meta({ description: 'only this prompt, under every name it had (the series then carries byVersion); `(unknown)`: requests for prompts that were not served' }),
  label: LabelNameSchema.optional().meta({ description: 'only fetches served through this label' }),
  client: safeString().min(1).max(200).optional().meta({ description: 'only this client, every version of it (an MCP clientInfo.name, a token name or a User-Agent)' }),
  clientVersion: safeString().max(64).optional().meta({ description: 'with or without client=: only this client version (an MCP clientInfo.version; empty for none)' }),
  bucket: z.enum(['minute', 'hour', 'day']).optional().meta({ description: 'series bucket size (default day, UTC); minute rows older than 7 days are kept per hour' }),
});

const counts = { fetches: z.number().int().meta({ description: 'requests of any outcome' }), errors: z.number().int().meta({ description: 'requests whose outcome is not ok' }) };

export const UsageReportSchema = z
  .object({
    bucket: z.enum(['minute', 'hour', 'day']),
    from: z.string(),
    to: z.string(),
    series: z.array(
      z.object({
        start: z.string(),
        ...counts,
        byVersion: z.record(z.string(), z.number().int()).meta({ description: 'fetches per version number; only when prompt= is given, else {}' }),
      }),
    ).meta({ description: 'every bucket from `from` to `to`, zero-filled' }),
    totals: z.object({
      ...counts,
      byPrompt: z.array(z.object({ prompt: z.string(), ...counts })).meta({ description: 'most fetched first' }),
      byVersion: z.array(z.object({ prompt: z.string(), version: z.number().int(), fetches: z.number().int() })).meta({ description: 'fetches that were served a version (an unknown prompt was not)' }),
      byLabel: z.array(z.object({ label: z.string(), fetches: z.number().int() })).meta({ description: 'fetches served through a label (a pinned version has none)' }),
      byClient: z.array(z.object({
        client: z.string(),
        ...counts,
        versions: z.array(z.object({ clientVersion: z.string(), fetches: z.number().int() })).meta({ description: "the client's versions, most fetches first ('' for none)" }),
      })).meta({ description: 'per client name, every version together' }),
      byOutcome: z.array(z.object({ outcome: z.enum(OUTCOMES), fetches: z.number().int() })).meta({ description: 'every outcome, in the order ok, invalid_arguments, not_found, error' }),
    }),
  })
  .meta({ id: 'UsageReport' });

export const PromptUsageSchema = z
  .object({
    prompt: z.string(),
    ...counts,
    lastServedAt: z.string().nullable(),
    versions: z.array(z.object({ version: z.number().int(), fetches: z.number().int(), lastServedAt: z.string() })).meta({ description: 'newest version first' }),
    clients: z.array(
      z.object({
        client: z.string(),
        clientVersion: z.string().meta({ description: 'the client version of its latest fetch ("" for none)' }),
        ...counts,
        lastVersion: z.number().int().nullable().meta({ description: 'the version this client was served last: an old one after a label moved is a client still on it' }),
        lastLabel: z.string().nullable(),
        lastServedAt: z.string(),
      }),
    ).meta({ description: 'most fetches first' }),
  })
  .meta({ id: 'PromptUsage' });

const badQuery = { 400: errorResponses[400], 401: errorResponses[401], 422: errorResponses[422] };

export const report = createRoute({
  method: 'get', path: '/usage', tags, summary: 'Fetches of served prompts over time and in total, by prompt, version, label, client and outcome',
  request: { query: UsageQuerySchema },
  responses: { 200: json(UsageReportSchema, 'Series and totals'), ...badQuery },
});

export const csv = createRoute({
  method: 'get', path: '/usage.csv', tags, summary: 'The same usage as CSV: one row per bucket × prompt × version × label × client × outcome',
  request: { query: UsageQuerySchema },
  responses: {
    200: { description: 'start,prompt,version,label,client,clientVersion,outcome,fetches (version empty when none was served)', content: { 'text/csv': { schema: z.string() } } },
    ...badQuery,
  },
});

export const ofPrompt = createRoute({
  method: 'get', path: '/prompts/{name}/usage', tags, summary: "One prompt's fetches per version and per client (which clients still fetch an old version)",
  request: { params: NameParamSchema, query: RangeQuerySchema },
  responses: { 200: json(PromptUsageSchema, "The prompt's usage"), ...badQuery, 404: errorResponses[404] },
});
