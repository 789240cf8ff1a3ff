// `matches` expectations run an author's regular expression against rendered text.
// JavaScript's backtracking engine takes exponential time on patterns such as
// `^(a|a)*$`, and no shape check catches every such pattern, so patterns run on RE2
// (re2js: pure JavaScript, time linear in the text): there is no catastrophic pattern
// left to refuse. What RE2 cannot match in linear time it does not have at all:
// backreferences and lookaround are refused at write time, in words that say why.
import { RE2JS } from 're2js';

const WHY = 'patterns run on RE2, which matches in linear time and has no';

/** RE2's syntax error for the features it leaves out, said in the author's terms. */
function unsupported(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `backreferences (\\1…) are not supported: ${WHY} backreferences`;
      if (!inClass && next === 'k' && source[i + 2] === '<') return `named backreferences (\\k<name>) are not supported: ${WHY} backreferences`;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') inClass = true;
    else if (ch === '(' && /^\(\?(=|!|<=|<!)/.test(source.slice(i, i + 4))) {
      return `lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: ${WHY} lookaround`;
    }
  }
  return undefined;
}

/** Compiles `source` for RE2; throws with a message an author can act on. */
export function compilePattern(source: string): RE2JS {
  const problem = unsupported(source);
  if (problem) throw new Error(problem);
  try {
    return RE2JS.compile(source);
  } catch (e) {
    throw new Error(`not a valid regular expression (RE2 syntax): ${(e as Error).message.replace(/^error parsing regexp: /, '')}`);
  }
}

/** Why `source` is refused as a `matches` pattern, or undefined when it is accepted. */
export function regexProblem(source: string): string | undefined {
  try {
    compilePattern(source);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
