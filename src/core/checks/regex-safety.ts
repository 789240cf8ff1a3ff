// `matches` expectations run an author's regular expression against rendered text.
// JavaScript's backtracking engine can take exponential (or high polynomial) time on
// some patterns, and no RE2 binding is installed, so two guards apply:
//   1. at write time, patterns whose shape is known to backtrack badly are refused
//      (backreferences, lookaround, a quantifier over a group that holds a quantifier);
//   2. at run time, the match runs in a worker thread with a time budget and a bounded
//      input (regex-runner.ts), so what the shape check misses (e.g. `.*.*x`) cannot
//      stall the process.

/** Why `source` is refused as a `matches` pattern, or undefined when it is accepted. */
export function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source, 'u');
  } catch (e) {
    return `not a valid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  // One frame per open group: whether something inside it is quantified.
  const groups: { quantified: boolean }[] = [{ quantified: false }];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return 'backreferences (\\1…) are not allowed';
      if (!inClass && next === 'k' && source[i + 2] === '<') return 'named backreferences (\\k<name>) are not allowed';
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      continue;
    }
    if (ch === '(') {
      if (/^\(\?(=|!|<=|<!)/.test(source.slice(i, i + 4))) return 'lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not allowed';
      groups.push({ quantified: false });
      // Skip a group's prefix ((?:, (?<name>) so its "?" is not read as a quantifier.
      if (source[i + 1] === '?') {
        const end = source[i + 2] === '<' ? source.indexOf('>', i) : source.indexOf(':', i);
        if (end > i) i = end;
      }
      continue;
    }
    const quantifierLength = quantifierAt(source, i);
    if (ch === ')') {
      const inner = groups.pop()!;
      const q = quantifierAt(source, i + 1);
      if (q && inner.quantified) return 'nested quantifiers such as (a+)+ are not allowed: they can take exponential time';
      if (inner.quantified || q) groups.at(-1)!.quantified = true;
      if (q) i += q;
      continue;
    }
    if (quantifierLength) {
      groups.at(-1)!.quantified = true;
      i += quantifierLength - 1;
    }
  }
  return undefined;
}

/** Length of the quantifier starting at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy), or 0. */
function quantifierAt(source: string, i: number): number {
  const ch = source[i];
  let n = 0;
  if (ch === '*' || ch === '+' || ch === '?') n = 1;
  else if (ch === '{') {
    const m = /^\{\d+(,\d*)?\}/.exec(source.slice(i));
    if (m) n = m[0].length;
  }
  if (n && source[i + n] === '?') n++;
  return n;
}
