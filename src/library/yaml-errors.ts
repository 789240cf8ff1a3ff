// A library file's parse errors in the library's words: `yaml`'s messages speak to
// programmers ("please use YAML.parseAllDocuments()"), and a `.json` file that does not
// parse is a JSON mistake, best told with JSON's own message and where it is.
import type { Document, YAMLError } from 'yaml';
import type { FieldError } from '../core/errors.js';
import { yamlLib, type LibraryYaml } from './library-yaml.js';

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/**
 * An unclosed quote is reported by the parser where the file ends; the fault is where
 * the quoted value opens, so point there.
 */
function unclosedQuoteError(doc: Document, text: string, e: YAMLError): FieldError | undefined {
  if (e.code !== 'MISSING_CHAR' || !/quote/i.test(e.message)) return undefined;
  let opened: number | undefined;
  yamlLib().visit(doc, {
    Scalar(_, n) {
      if ((n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE') && n.range && n.range[0] <= e.pos[0] && n.range[1] >= e.pos[0]) opened = n.range[0];
    },
  });
  if (opened === undefined) return undefined;
  const quote = text[opened] === "'" ? 'single' : 'double';
  return { path: `line ${lineAt(text, opened)}`, message: `the ${quote} quote opened here is never closed` };
}

/** JSON.parse's complaint about `text` with its line and column; undefined when it parses. */
export function jsonError(text: string): FieldError | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // V8: "… in JSON at position 42" (and sometimes "(line 3 column 5)"); the end of input has none.
    const at = /at position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : text.length;
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - (before.lastIndexOf('\n') + 1) + 1;
    const what = message.replace(/\s*(?:in JSON )?at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    return { path: `line ${line}`, message: `invalid JSON at line ${line}, column ${column}: ${what}` };
  }
}

/**
 * The errors of a parsed library file (`doc.errors` not empty). `shown` is its path in
 * the library (a `.json` one gets JSON's wording), `what` what one such file holds.
 */
export function yamlFileErrors(doc: LibraryYaml, text: string, shown: string, what = 'a prompt file'): FieldError[] {
  if (/\.json$/i.test(shown)) {
    const json = jsonError(text);
    if (json) return [json];
  }
  if (doc.errors.some((e) => e.code === 'MULTIPLE_DOCS')) {
    const n = yamlLib().parseAllDocuments(text);
    const count = Array.isArray(n) ? n.length : 0;
    return [{ path: '(file)', message: `holds ${count} YAML documents; ${what} holds one` }];
  }
  return doc.errors.map(
    (e) => (doc.document && unclosedQuoteError(doc.document, text, e)) ?? { path: e.linePos ? `line ${e.linePos[0].line}` : '(file)', message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?\s*$/, '').replace(/:\s*$/, '') },
  );
}
