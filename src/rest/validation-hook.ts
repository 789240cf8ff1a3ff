import type { Hook } from '@hono/zod-openapi';
import { DomainError } from '../core/errors.js';
import { zodToFieldErrors } from './problem.js';

/** Invalid bodies are 422 naming each failing field; invalid query/path/header values are 400. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const validationHook: Hook<any, any, any, any> = (result, c) => {
  if (result.success) return;
  const target = (result as { target?: string }).target;
  const errors = zodToFieldErrors(result.error as never, target === 'json' ? undefined : target === 'param' ? undefined : target);
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  if (target === 'json') throw new DomainError('validation', `the request body is invalid: ${detail}`, errors);
  if (target === 'param' && errors.some((e) => e.path === 'name')) throw new DomainError('validation', `invalid prompt name: ${detail}`, errors);
  void c;
  throw new DomainError('bad_request', `invalid request: ${detail}`, errors);
};
