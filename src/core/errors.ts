// The one domain error type. Faces translate `code` through ERROR_TABLE: HTTP status
// for the admin REST API, JSON-RPC error code for MCP.

export type ErrorCode =
  | 'bad_request'
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unavailable'
  | 'internal';

export interface FieldError {
  /** JSON-ish path of the failing input, e.g. `messages[0].content.text` */
  path: string;
  message: string;
}

export const ERROR_TABLE: Record<ErrorCode, { status: number; title: string; jsonRpc: number }> = {
  bad_request: { status: 400, title: 'Bad request', jsonRpc: -32602 },
  validation: { status: 422, title: 'Validation failed', jsonRpc: -32602 },
  unauthorized: { status: 401, title: 'Unauthorized', jsonRpc: -32001 },
  forbidden: { status: 403, title: 'Forbidden', jsonRpc: -32001 },
  not_found: { status: 404, title: 'Not found', jsonRpc: -32602 },
  conflict: { status: 409, title: 'Conflict', jsonRpc: -32602 },
  precondition_failed: { status: 412, title: 'Precondition failed', jsonRpc: -32602 },
  payload_too_large: { status: 413, title: 'Payload too large', jsonRpc: -32602 },
  unavailable: { status: 503, title: 'Service unavailable', jsonRpc: -32603 },
  internal: { status: 500, title: 'Internal error', jsonRpc: -32603 },
};

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[];
  constructor(code: ErrorCode, message: string, errors: FieldError[] = []) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.errors = errors;
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const conflict = (message: string, errors: FieldError[] = []) => new DomainError('conflict', message, errors);
export const invalid = (message: string, errors: FieldError[]) => new DomainError('validation', message, errors);
export const badRequest = (message: string, errors: FieldError[] = []) => new DomainError('bad_request', message, errors);

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

/** zod issue path → `messages[0].content.text` */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}
