// Client-side warnings wait until the author has touched the field (or tried to save): no "A name is required." before typing.
import type { Messages } from '../bits';

/** Paths of single inputs; anything else (e.g. "messages": no message left) follows an action and shows at once. */
const FIELD = /^(name|title|description|note|(arguments|icons)\[\d+\]\.\w+|messages\[\d+\]\.(role|content\.[\w.]+)|tests\[\d+\]\.(name|expect\[\d+\]\.\w+))$/;

export function visibleWarnings(warnings: Messages, touched: Set<string>, submitted: boolean): Messages {
  if (submitted) return warnings;
  return Object.fromEntries(Object.entries(warnings).filter(([p]) => !FIELD.test(p) || touched.has(p)));
}
