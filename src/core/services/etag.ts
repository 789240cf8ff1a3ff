// A prompt's ETag is its revision, which every write to the prompt bumps.
import { DomainError } from '../errors.js';
import { LIMITS } from '../schemas.js';
import type { PromptDetail } from '../types.js';

export function etagOf(p: Pick<PromptDetail, 'revision' | 'name'>): string {
  return `"${p.revision}"`;
}

export function parseEtag(etag: string): number {
  const m = /^(?:W\/)?"(\d{1,10})"$/.exec(etag.trim());
  if (!m || Number(m[1]) > LIMITS.intMax) throw new DomainError('precondition_failed', 'If-Match does not hold an ETag issued by this server; reload the prompt and try again');
  return Number(m[1]);
}
