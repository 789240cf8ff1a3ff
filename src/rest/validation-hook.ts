import type { Hook } from '@hono/zod-openapi';
import { DomainError } from '../core/errors.js';
import { mergeFieldErrors, semanticErrorsOf } from '../core/validate-version.js';
import { zodToFieldErrors } from './problem.js';

/** Invalid bodies, prompt names and labels are 422 naming each failing field; other invalid query/path/header values are 400. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const validationHook: Hook<any, any, any, any> = (result, c) => {
  if (result.success) return;
  const target = (result as { target?: string }).target;
  let errors = zodToFieldErrors(result.error as never, target === 'json' ? undefined : target === 'param' ? undefined : target);
  // A prompt body's other errors ({{var}} not declared…) in the same answer, not after the schema ones are fixed.
  if (target === 'json') errors = mergeFieldErrors(errors, semanticErrorsOf((result as { data?: unknown }).data));
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  if (target === 'json') throw new DomainError('validation', `the request body is invalid: ${detail}`, errors);
  if (target === 'param') {
    // "invalid label "Bad!": a label is …", not "invalid label: label: a label is …".
    const raw = ((result as { data?: Record<string, unknown> }).data ?? {}) as Record<string, unknown>;
    const said = (e: { path: string; message: string }, noun: string) => `${noun} ${JSON.stringify(String(raw[e.path] ?? '').slice(0, 80))}: ${e.message}`;
    const named = (e: { path: string; message: string }) =>
      e.path === 'name' ? said(e, 'invalid prompt name') : e.path === 'label' || e.path === 'from' ? said(e, 'invalid label') : `${e.path}: ${e.message}`;
    if (errors.some((e) => ['name', 'label', 'from'].includes(e.path))) throw new DomainError('validation', errors.map(named).join('; '), errors);
  }
  void c;
  throw new DomainError('bad_request', `invalid request: ${detail}`, errors);
};
