// RFC 9457 problem+json for every error the HTTP faces produce, in one place.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { DomainError, ERROR_TABLE, formatPath, type ErrorCode, type FieldError } from '../core/errors.js';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
}

export function problemResponse(c: Context, status: number, title: string, detail: string, errors?: FieldError[]): Response {
  const body: Problem = { type: 'about:blank', title, status, detail, instance: c.req.path, ...(errors?.length ? { errors } : {}) };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json' } });
}

export function zodToFieldErrors(error: ZodError, prefix?: string): FieldError[] {
  // z.int() adds its own safe-integer bound: 1e99 failed it and our .max() alike, two
  // errors for one number. Drop zod's bound when the same field has another issue.
  const paths = error.issues.map((i) => formatPath(prefix ? [prefix, ...i.path] : i.path) || '(body)');
  const implicit = (i: ZodError['issues'][number]) =>
    (i.code === 'too_big' && Number(i.maximum) === Number.MAX_SAFE_INTEGER) || (i.code === 'too_small' && Number(i.minimum) === Number.MIN_SAFE_INTEGER);
  return error.issues.flatMap((i, n) =>
    implicit(i) && error.issues.some((o, m) => m !== n && paths[m] === paths[n] && !implicit(o)) ? [] : [{ path: paths[n]!, message: i.message }]);
}

const codeOfStatus = (status: number): ErrorCode | undefined =>
  (Object.entries(ERROR_TABLE).find(([, v]) => v.status === status)?.[0] as ErrorCode | undefined);

export function renderError(err: unknown, c: Context, log?: (e: unknown) => void): Response {
  if (err instanceof DomainError) {
    const t = ERROR_TABLE[err.code];
    return problemResponse(c, t.status, t.title, err.message, err.errors);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const code = codeOfStatus(status);
    const detail = status === 413 ? 'request body is larger than this endpoint accepts' : err.message || (code ? ERROR_TABLE[code].title : 'Error');
    const res = problemResponse(c, status, code ? ERROR_TABLE[code].title : 'Error', detail);
    const www = err.getResponse().headers.get('www-authenticate');
    if (www) res.headers.set('www-authenticate', www);
    return res;
  }
  log?.(err);
  return problemResponse(c, 500, 'Internal error', 'an unexpected error occurred; it has been logged');
}
