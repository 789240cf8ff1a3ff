// Webhook inputs, shared by the faces. Whether a URL may point at a private address
// depends on configuration, so the service checks that part (url-guard.ts).
import { z } from 'zod';
import { LabelNameSchema, LIMITS, safeString } from '../schemas.js';
import { eventNameProblem } from './events.js';
import { webhookUrlProblem } from './url-guard.js';

export const WEBHOOK_LIMITS = { webhooks: 100, eventsPerWebhook: 50, urlLength: LIMITS.uriLength } as const;

const WebhookUrlSchema = safeString()
  .min(1)
  .max(WEBHOOK_LIMITS.urlLength)
  .superRefine((s, ctx) => {
    const problem = webhookUrlProblem(s, true);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ example: 'https://example.com/hooks/promptd' });

const EventNameSchema = z
  .string()
  .max(64)
  .superRefine((s, ctx) => {
    const problem = eventNameProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const EventsSchema = z.array(EventNameSchema).min(1, 'name at least one event (or "*")').max(WEBHOOK_LIMITS.eventsPerWebhook);

/** The release label format (src/core/schemas.ts); `latest` matches every new version. */
export const LabelSchema = LabelNameSchema;

export const WebhookInputSchema = z
  .object({
    url: WebhookUrlSchema,
    events: EventsSchema.meta({ example: ['version.created', 'labels.promoted'] }),
    label: LabelSchema.nullish().meta({ description: 'only events whose details carry this release label (details.label or details.labels)' }),
    active: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'WebhookInput' });

export const WebhookPatchSchema = z
  .object({
    url: WebhookUrlSchema.optional(),
    events: EventsSchema.optional(),
    label: LabelSchema.nullish(),
    active: z.boolean().optional(),
    rotateSecret: z.literal(true).optional().meta({ description: 'issue a new secret (returned once in the response)' }),
  })
  .strict()
  .meta({ id: 'WebhookPatch' });

export type WebhookInput = z.infer<typeof WebhookInputSchema>;
export type WebhookPatch = z.infer<typeof WebhookPatchSchema>;
