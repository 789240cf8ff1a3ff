// Caps on what one YAML file may hold, checked before either parser sees it. `yaml`
// builds a node object per value: a 4 MB flow list of 2 million items took 20 s and
// 2 GB of heap (issue #36.5), and js-yaml recurses once per nesting level. A prompt
// file holds a few hundred nodes; a history file of many versions some thousands.
//
// Two passes, the second only when the first cannot rule a file in:
//   1. one loop over the characters: every node of a collection comes with one of
//      `[ { , - : ?` (so nodes ≤ 2 × their count + 1), plus a rough nesting guess;
//   2. a scan that reads YAML's tokens well enough to count nodes and nesting (prose in
//      block scalars, quotes and plain scalars is one value) and stops at the first cap.
// (`yaml`'s own Lexer was tried for 2: 1.2 s for the first 100,000 items of a long line.)
/** Values (scalars, aliases, flow collections) in one file. */
export const MAX_YAML_NODES = 100_000;
/** Collections nested in one another. */
export const MAX_YAML_DEPTH = 64;

/** Per character code below 128: 1 a structural character (`, - : ?`), 2 an opening bracket, 3 a closing one. */
const KIND = new Uint8Array(128);
for (const ch of ',-:?') KIND[ch.charCodeAt(0)] = 1;
for (const ch of '[{') KIND[ch.charCodeAt(0)] = 2;
for (const ch of ']}') KIND[ch.charCodeAt(0)] = 3;
/** A line opening more than a few compact block collections (`- - - - x`). */
const COMPACT_RUN = /^(?:[ \t]*[-?][ \t]+){8}/m;
/** A line indented more than any prompt file's structure is (code in a block scalar may be). */
const DEEP_INDENT = /^ {96}/m;

/** The cap `text` goes over, in words; undefined when it stays within them. */
export function yamlCapProblem(text: string): string | undefined {
  let structural = 0;
  let opens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const k = c < 128 ? KIND[c]! : 0;
    if (k === 1) structural++;
    else if (k === 2) opens++;
  }
  // Few brackets cannot nest deeply; block nesting needs indentation or a run of `- `.
  if ((structural + opens) * 2 + 1 <= MAX_YAML_NODES && opens <= MAX_YAML_DEPTH / 2 && !COMPACT_RUN.test(text) && !DEEP_INDENT.test(text)) return undefined;
  return scannedProblem(text);
}

const SPACE = 0x20;
const TAB = 0x09;
const NL = 0x0a;
const CR = 0x0d;
const isBlank = (c: number) => c === SPACE || c === TAB || c === NL || c === CR || Number.isNaN(c);
const FLOW_END = new Set([0x2c, 0x5b, 0x5d, 0x7b, 0x7d]); // , [ ] { }

/**
 * Counts nodes and nesting the way YAML reads them, enough to bound both: quoted and
 * block scalars, plain scalars and comments are skipped as one value each (the
 * punctuation in prose is text, not structure). It never builds anything and stops at
 * the first cap. It may count a node too many (a plain scalar continued on the next line
 * is counted twice), never one too few where both parsers agree on a file.
 */
function scannedProblem(text: string): string | undefined {
  return scanYaml(text, MAX_YAML_NODES, MAX_YAML_DEPTH).over;
}

/** What the scan counts (values, deepest nesting), up to the caps given; `over` names the first cap passed. */
export function scanYaml(text: string, maxNodes: number, maxDepth: number): { nodes: number; depth: number; over?: string } {
  const n = text.length;
  let nodes = 0;
  let flow = 0;
  // Columns of the open block collections: an entry further right is nested in the one
  // before it. (A sequence written at its parent key's column is counted as a sibling,
  // so a file can nest at most twice what is counted here.)
  const block: number[] = [];
  /** column of the entry a block scalar is the value of (its content is indented more); -1: the top level; -2: none */
  let scalarParent = -2;
  let lineStart = 0;
  let atLineStart = true;
  let entryNext = false;
  let indicatorCol = 0;
  let deepest = 0;
  const result = (over?: string) => ({ nodes, depth: deepest, ...(over ? { over } : {}) });
  const tooMany = result.bind(null, `too many YAML nodes (over ${maxNodes})`);
  const tooDeep = result.bind(null, `YAML nested too deeply (over ${maxDepth} levels)`);
  const deeper = () => (deepest = Math.max(deepest, block.length + flow)) > maxDepth;
  const entry = (col: number): boolean => {
    while (block.length && block[block.length - 1]! > col) block.pop();
    if (!block.length || block[block.length - 1]! < col) block.push(col);
    return deeper();
  };
  const toEol = (from: number) => {
    const e = text.indexOf('\n', from);
    return e < 0 ? n : e;
  };
  let i = 0;
  while (i < n) {
    if (atLineStart) {
      lineStart = i;
      let j = i;
      while (text.charCodeAt(j) === SPACE) j++;
      const indent = j - i;
      const c = text.charCodeAt(j);
      if (scalarParent > -2) {
        // A block scalar's line (or a blank one inside it) is text.
        if (indent > scalarParent || c === NL || c === CR || j >= n) {
          i = toEol(j) + 1;
          continue;
        }
        scalarParent = -2;
      }
      atLineStart = false;
      i = j;
      if (c === NL || c === CR || c === 0x23 /* # */ || j >= n) continue;
      // (A block scalar's header is no entry: its text is indented from the entry it belongs to.)
      if (flow === 0 && c !== 0x7c && c !== 0x3e && entry(indent)) return tooDeep();
    }
    const c = text.charCodeAt(i);
    if (c === NL) {
      atLineStart = true;
      entryNext = false;
      i++;
      continue;
    }
    if (c === SPACE || c === TAB || c === CR) {
      i++;
      continue;
    }
    if (c === 0x23 /* # */) {
      i = toEol(i);
      continue;
    }
    if ((c === 0x7c /* | */ || c === 0x3e /* > */) && flow === 0) {
      // A block scalar: its lines are those indented more than the collection entry
      // it is the value of (not more than its header's line: `- a: |` then `  b: …`
      // is a sibling key, not text). At the top level, the rest of the file.
      if (++nodes > maxNodes) return tooMany();
      // Right after `- ` or `? ` it is that entry's value: its text is indented from the indicator.
      scalarParent = entryNext ? indicatorCol : block.length ? block[block.length - 1]! : -1;
      entryNext = false;
      i = toEol(i);
      continue;
    }
    if (entryNext) {
      entryNext = false;
      if (flow === 0 && entry(i - lineStart)) return tooDeep();
    }
    const next = text.charCodeAt(i + 1);
    if ((c === 0x2d /* - */ || c === 0x3f /* ? */) && isBlank(next) && flow === 0) {
      entryNext = true;
      indicatorCol = i - lineStart;
      i++;
      continue;
    }
    // `? ` in a flow collection marks an explicit key, as in a block one: the key follows
    // (read as a plain scalar, a quoted key's `]` would close the collection early).
    if (c === 0x3f /* ? */ && isBlank(next) && flow > 0) {
      i++;
      continue;
    }
    if (c === 0x3a /* : */ && (isBlank(next) || (flow > 0 && FLOW_END.has(next)))) {
      i++;
      continue;
    }
    if (c === 0x2c /* , */) {
      i++;
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      if (++nodes > maxNodes) return tooMany();
      flow++;
      if (deeper()) return tooDeep();
      i++;
      continue;
    }
    if (c === 0x5d || c === 0x7d) {
      if (flow > 0) flow--;
      i++;
      continue;
    }
    if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
      // An anchor or a tag: names the value after it, is none itself.
      while (i < n && !isBlank(text.charCodeAt(i)) && !(flow > 0 && FLOW_END.has(text.charCodeAt(i)))) i++;
      continue;
    }
    if (++nodes > maxNodes) return tooMany();
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const q = text.charCodeAt(i);
        if (q === 0x5c /* \ */) i++;
        else if (q === 0x22) break;
      }
      i++;
      continue;
    }
    if (c === 0x27 /* ' */) {
      for (i++; i < n; i++) {
        if (text.charCodeAt(i) === 0x27) {
          if (text.charCodeAt(i + 1) === 0x27) i++;
          else break;
        }
      }
      i++;
      continue;
    }
    // A plain scalar (or an alias): to the end of its line, or of the value in a flow collection.
    for (i++; i < n; i++) {
      const p = text.charCodeAt(i);
      if (p === NL) break;
      if (p === 0x3a && (isBlank(text.charCodeAt(i + 1)) || (flow > 0 && FLOW_END.has(text.charCodeAt(i + 1))))) break;
      if (p === 0x23 && isBlank(text.charCodeAt(i - 1))) break;
      if (flow > 0 && FLOW_END.has(p)) break;
    }
  }
  return result();
}
