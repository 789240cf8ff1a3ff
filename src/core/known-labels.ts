// Which labels exist, for every face alike (REST, MCP, CLI, the read API, token scopes):
// a label named to read, filter, check, promote from or scope a token to must be one
// some prompt carries, or `production` / `latest`, which always exist. A typo
// ("stagign") is then a 404 naming the labels there are, not an empty answer that
// looks like success. Creating a label (PUT a pointer, promote *to*) is not a lookup.
import { DomainError } from './errors.js';
import { LATEST, PRODUCTION } from './schemas.js';

/** not_found naming the known labels; `path` is the field that named the label. */
export function unknownLabel(label: string, known: readonly string[], path = 'label'): DomainError {
  return new DomainError('not_found', `label "${label}" is not known; known labels: ${known.join(', ')}`, [{ path, message: `unknown; known: ${known.join(', ')}` }]);
}

export interface KnownLabels {
  /** Every label some prompt carries, plus `production` and `latest`, sorted. */
  list(): Promise<string[]>;
  /** Throws not_found (naming the known labels) unless `label` is known. */
  require(label: string, path?: string): Promise<void>;
}

export function createKnownLabels(list: () => Promise<string[]>): KnownLabels {
  return {
    list,
    async require(label, path = 'label') {
      if (label === PRODUCTION || label === LATEST) return;
      const known = await list();
      if (!known.includes(label)) throw unknownLabel(label, known, path);
    },
  };
}
