// The text search of the served catalog (MCP list_prompts `query`): name, title or
// description contains the query, case-insensitively (toLowerCase on both sides).
// The catalog keeps each version as its JSON document and parses on use; parsing every
// entry a search examines cost ~5,000 JSON.parse calls per list_prompts call with a
// query that matches little (issue 21.1). So the raw document is checked first: a
// prompt can match only if its document contains the query, and only those are parsed.
// Only the document's head is read (ServedSource.searchHead: up to the description),
// not its messages, which are most of it and which the search does not look at.
import type { ServedPrompt } from './catalog.js';

/** Characters whose toLowerCase() is ASCII although they are not: İ (→ i̇) and the Kelvin sign (→ k). */
const LOWERS_TO_ASCII = /[\u0130\u212a]/;
// A query that only document text written verbatim can contain: ASCII printable, no `"`
// or `\` (the only printable characters JSON escapes).
const VERBATIM = /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/;

export interface QueryMatcher {
  /** False only when the prompt cannot match (its document is the raw JSON text). */
  mayMatch(name: string, doc: string): boolean;
  matches(p: Pick<ServedPrompt, 'name' | 'title' | 'description'>): boolean;
}

/** `head`: the part of a document holding its title and description (ServedSource.searchHead); the whole document without it. */
export function queryMatcher(query: string, head: (doc: string) => string = (doc) => doc): QueryMatcher {
  const needle = query.toLowerCase();
  const matches = (p: Pick<ServedPrompt, 'name' | 'title' | 'description'>) =>
    p.name.toLowerCase().includes(needle) || (p.title ?? '').toLowerCase().includes(needle) || (p.description ?? '').toLowerCase().includes(needle);
  if (!VERBATIM.test(needle)) return { mayMatch: () => true, matches };
  // An ASCII needle: a title or description containing it (after toLowerCase) holds it
  // verbatim up to ASCII case, unless it holds one of LOWERS_TO_ASCII.
  const inDoc = new RegExp(needle.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'i');
  return {
    // The name by the same case-blind regex: no lowercased copy of every name examined.
    mayMatch: (name, doc) => {
      if (inDoc.test(name)) return true;
      const h = head(doc);
      return inDoc.test(h) || LOWERS_TO_ASCII.test(h);
    },
    matches,
  };
}
