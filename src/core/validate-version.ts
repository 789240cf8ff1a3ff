// Whole-version validation on save (spec §3): every template parses, every
// `{{var}}` is a declared argument, every bound URI template's variables are
// declared, every referenced stored resource exists, every literal URI has an
// allowed scheme. Template limits (nesting, tags, dotted names) come from
// analyzeTemplate. Reports every failing path.
import type { FieldError } from './errors.js';
import { ArgumentNameSchema, ArgumentSchema, ContentSchema, MessageSchema, TestCaseSchema, TestExpectationSchema, type TestCase, type VersionInput } from './schemas.js';
import { analyzeTemplate, type TemplateAnalysis } from './template.js';
import { badChoices, defaultProblems } from './arguments.js';
import { isUriTemplate, parseUriTemplate } from './uri-template.js';
import { uriSchemeProblem } from './uri-schemes.js';
import { testCaseProblems } from './checks/expectations.js';

export interface StoredResourceInfo {
  id: number;
  binary: boolean;
  mimeType: string;
}

/**
 * A text message's analysis, kept with its content object: a version write validates
 * its body (validateVersion) and then answers with versionWarnings of the same body, and
 * a mustache parse of each template was ~4% of a write's CPU. Weak, so nothing outlives
 * the request's body; the text is compared, so a content changed in between is analysed anew.
 */
const analysed = new WeakMap<object, { text: string; analysis: TemplateAnalysis }>();
function analyseText(content: object, text: string): TemplateAnalysis {
  const kept = analysed.get(content);
  if (kept && kept.text === text) return kept.analysis;
  const analysis = analyzeTemplate(text);
  analysed.set(content, { text, analysis });
  return analysis;
}

/** Literal URIs a version refers to, to be looked up before validation. */
export function referencedUris(input: Pick<VersionInput, 'messages'>): string[] {
  const out = new Set<string>();
  for (const m of input.messages) {
    const c = m.content;
    const uri = 'resourceUri' in c ? c.resourceUri : 'uri' in c ? c.uri : undefined;
    if (uri !== undefined && !isUriTemplate(uri)) out.add(uri);
  }
  return [...out];
}

/**
 * `stored` undefined: skip the checks that need stored resources (a body that failed its
 * schema, see semanticErrorsOf).
 */
export function validateVersion(input: VersionInput, stored: Map<string, StoredResourceInfo> | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const declared = new Set<string>();
  input.arguments.forEach((a, i) => {
    if (declared.has(a.name)) errors.push({ path: `arguments[${i}].name`, message: `argument "${a.name}" is declared twice` });
    declared.add(a.name);
    if (a.choices && a.maxLength) {
      const long = a.choices.find((c) => c.length > a.maxLength!);
      if (long) errors.push({ path: `arguments[${i}].choices`, message: `choice "${long}" is longer than maxLength ${a.maxLength}` });
    }
    if (a.choices && new Set(a.choices).size !== a.choices.length) errors.push({ path: `arguments[${i}].choices`, message: 'choices must be unique' });
    const bad = badChoices(a);
    if (bad.length) errors.push({ path: `arguments[${i}].choices`, message: `choice "${bad[0]}" is not ${a.type === 'integer' ? 'an integer' : a.type === 'number' ? 'a number' : 'true or false'} (the argument's type)` });
    else for (const message of defaultProblems(a)) errors.push({ path: `arguments[${i}].default`, message });
  });

  input.messages.forEach((m, i) => {
    const c = m.content;
    const at = `messages[${i}].content`;
    if (c.type === 'text') {
      const { variables, errors: problems } = analyseText(c, c.text);
      for (const message of problems) errors.push({ path: `${at}.text`, message });
      for (const v of variables) {
        if (!declared.has(v)) errors.push({ path: `${at}.text`, message: `{{${v}}} is not a declared argument` });
      }
      return;
    }
    if (c.type === 'include') {
      // Stored includes are checked against what they name in the write (include-checks.ts).
      for (const [name, template] of Object.entries(c.arguments ?? {})) {
        const { variables, includes, errors: problems } = analyzeTemplate(template);
        for (const message of problems) errors.push({ path: `${at}.arguments.${name}`, message });
        if (includes.length) errors.push({ path: `${at}.arguments.${name}`, message: 'an include argument is a template over this prompt\'s arguments; it cannot include another prompt' });
        for (const v of variables) {
          if (!declared.has(v)) errors.push({ path: `${at}.arguments.${name}`, message: `{{${v}}} is not a declared argument` });
        }
      }
      return;
    }
    if ('data' in c) {
      if (!c.mimeType.startsWith(`${c.type}/`)) errors.push({ path: `${at}.mimeType`, message: `an ${c.type} needs an ${c.type}/* mimeType` });
      return;
    }
    const field = 'resourceUri' in c ? 'resourceUri' : 'uri';
    const uri = 'resourceUri' in c ? c.resourceUri : c.uri;
    if ('allow' in c && c.allow && !isUriTemplate(uri)) {
      errors.push({ path: `${at}.allow`, message: 'allow restricts what a URI template may expand to; a literal URI needs none' });
    }
    if (isUriTemplate(uri)) {
      if (c.type === 'image' || c.type === 'audio') {
        errors.push({ path: `${at}.${field}`, message: `${c.type} messages must name one stored resource, not a URI template` });
        return;
      }
      const { expressions, error } = parseUriTemplate(uri);
      if (error) errors.push({ path: `${at}.${field}`, message: error });
      for (const v of new Set(expressions.flatMap((e) => e.names))) {
        if (!declared.has(v)) errors.push({ path: `${at}.${field}`, message: `URI template variable {${v}} is not a declared argument` });
      }
      return;
    }
    const schemeProblem = uriSchemeProblem(uri);
    if (schemeProblem) {
      errors.push({ path: `${at}.${field}`, message: schemeProblem });
      return;
    }
    if (!stored) return;
    const r = stored.get(uri);
    if (!r) {
      errors.push({ path: `${at}.${field}`, message: `no stored resource has the URI "${uri}"` });
      return;
    }
    if (c.type === 'image' || c.type === 'audio') {
      if (!r.binary || !r.mimeType.startsWith(`${c.type}/`)) {
        errors.push({ path: `${at}.${field}`, message: `resource "${uri}" is not a binary ${c.type}/* resource (it is ${r.mimeType})` });
      }
    }
  });
  // Test cases (checks/expectations.ts): safe `matches` patterns, declared arguments only.
  errors.push(...testCaseProblems(input.tests, declared));
  return errors;
}

/**
 * What a version may be saved with but probably should not: a required argument no
 * template uses (a client must send it, and it changes nothing). Returned with the
 * write, never refused. Templates that do not parse are the errors' business.
 */
export function versionWarnings(input: Pick<VersionInput, 'arguments' | 'messages'>): FieldError[] {
  const used = new Set<string>();
  const templates: string[] = [];
  const analyses: TemplateAnalysis[] = [];
  for (const m of input.messages) {
    const c = m.content as { type: string; text?: unknown; uri?: unknown; resourceUri?: unknown; arguments?: unknown };
    // An included prompt ({{> name}}, or an include message without an argument map) may
    // read our arguments by name, and which ones is only known against the store: no
    // guessing, no warnings.
    if ((c.type === 'text' && typeof c.text === 'string' && /\{\{\s*>/.test(c.text)) || (c.type === 'include' && !c.arguments)) return [];
    if (c.type === 'text' && typeof c.text === 'string') analyses.push(analyseText(c, c.text));
    const uri = typeof c.uri === 'string' ? c.uri : typeof c.resourceUri === 'string' ? c.resourceUri : undefined;
    if (uri !== undefined && isUriTemplate(uri)) for (const e of parseUriTemplate(uri).expressions) for (const n of e.names) used.add(n);
    // An include message passes values to the included prompt as templates over ours.
    if (c.arguments && typeof c.arguments === 'object') for (const t of Object.values(c.arguments)) if (typeof t === 'string') templates.push(t);
  }
  for (const t of templates) analyses.push(analyzeTemplate(t));
  for (const a of analyses) for (const v of a.variables) used.add(v);
  const warnings: FieldError[] = [];
  input.arguments.forEach((a, i) => {
    if (a.required && !used.has(a.name)) {
      warnings.push({ path: `arguments[${i}]`, message: `required argument "${a.name}" is not used by any template: clients must send it and it changes nothing; use it or make it optional` });
    }
  });
  return warnings;
}

/**
 * The checks above, run on the well-formed parts of a body that failed its schema, so
 * one answer lists the schema errors and the others ({{var}} not declared, a choice
 * too long, a test case's undeclared argument or unsafe pattern) together. A message
 * with a bad role still has its content checked; a malformed content, test case
 * expectation or test argument is left out (indexes kept); a malformed argument still
 * declares its name, so it causes no "not declared" error of its own.
 */
export function semanticErrorsOf(raw: unknown): FieldError[] {
  if (!raw || typeof raw !== 'object') return [];
  const body = raw as { arguments?: unknown; messages?: unknown; tests?: unknown };
  const args = Array.isArray(body.arguments) ? body.arguments : [];
  const msgs = Array.isArray(body.messages) ? body.messages : [];
  const tests = Array.isArray(body.tests) ? body.tests : [];
  const placeholder = { type: 'text' as const, text: '' };
  const salvaged = {
    arguments: args.map((a, i) => {
      const p = ArgumentSchema.safeParse(a);
      if (p.success) return p.data;
      const name = (a as { name?: unknown } | null)?.name;
      return { name: typeof name === 'string' ? name : `\u0000${i}`, required: false };
    }),
    messages: msgs.map((m) => {
      const p = MessageSchema.safeParse(m);
      if (p.success) return p.data;
      const content = ContentSchema.safeParse((m as { content?: unknown } | null)?.content);
      return { role: 'user' as const, content: content.success ? content.data : placeholder };
    }),
    tests: tests.map(salvageTestCase),
  } as unknown as VersionInput;
  return validateVersion(salvaged, undefined);
}

/** A test case as far as it is well-formed: its valid argument names and expectations (others left blank, indexes kept). */
function salvageTestCase(raw: unknown, i: number): TestCase {
  const p = TestCaseSchema.safeParse(raw);
  if (p.success) return p.data;
  const t = (raw && typeof raw === 'object' ? raw : {}) as { name?: unknown; arguments?: unknown; expect?: unknown };
  const args = t.arguments && typeof t.arguments === 'object' && !Array.isArray(t.arguments) ? Object.keys(t.arguments) : [];
  const expect = Array.isArray(t.expect) ? t.expect : [];
  return {
    // Not a name anyone writes: a case without a valid name never "appears twice".
    name: typeof t.name === 'string' ? t.name : `\u0000${i}`,
    arguments: Object.fromEntries(args.filter((a) => ArgumentNameSchema.safeParse(a).success).map((a) => [a, ''])),
    expect: expect.map((e) => {
      const x = TestExpectationSchema.safeParse(e);
      return x.success ? x.data : { maxChars: 1 };
    }),
  };
}

/** Schema errors first, then the semantic ones, each once. */
export function mergeFieldErrors(...lists: FieldError[][]): FieldError[] {
  const seen = new Set<string>();
  return lists.flat().filter((e) => {
    const k = `${e.path}\u0000${e.message}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
}
