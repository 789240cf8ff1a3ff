import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Mustache from 'mustache';
import { analyzeTemplate, checkedWriter, renderTemplate, templateCacheSize, templateInfo } from '../../src/core/template.js';
import { LIMITS } from '../../src/core/schemas.js';

const reference = (text: string, view: Record<string, string>) => Mustache.render(text, view, undefined, { escape: (v: unknown) => String(v) });

describe('template rendering', () => {
  it('inserts values literally, without HTML escaping or re-rendering', () => {
    expect(renderTemplate('Hi {{who}} & {{{who}}}: <{{x}}>', { who: '{{x}} <b>', x: '"q"' })).toBe('Hi {{x}} <b> & {{x}} <b>: <"q">');
  });

  it('renders sections for optional arguments and inverted sections for absent ones', () => {
    const t = 'Explain{{#language}} this {{language}}{{/language}}{{^language}} this{{/language}} code.';
    expect(renderTemplate(t, { language: 'Rust' })).toBe('Explain this Rust code.');
    expect(renderTemplate(t, {})).toBe('Explain this code.');
  });

  it('never reads Object.prototype members as values', () => {
    expect(renderTemplate('[{{constructor}}][{{toString}}]', {})).toBe('[][]');
  });

  it('matches mustache.js for random templates and values (the cached, flattened tokens change nothing)', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 12 }).map((s) => s.replaceAll('{', '(').replaceAll('}', ')')),
      fc.constantFrom('{{a}}', '{{{b}}}', '{{&a}}', '{{#a}}[{{a}}]{{/a}}', '{{^b}}none{{/b}}', '\n', '  {{#b}}\n  x\n  {{/b}}\n'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (parts, a, b) => {
        const text = parts.join('');
        const view = { a, b };
        // twice: the first render parses, the second uses the cache
        expect(renderTemplate(text, view)).toBe(reference(text, view));
        expect(renderTemplate(text, view)).toBe(reference(text, view));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a bounded number of parsed templates', () => {
    for (let i = 0; i < 2_500; i++) renderTemplate(`template ${i} for {{who}}`, { who: 'x' });
    expect(templateCacheSize()).toBeLessThanOrEqual(2_000);
    expect(renderTemplate('template 7 for {{who}}', { who: 'y' })).toBe('template 7 for y');
  });

  it('analysis finds variables and includes, rejects malformed includes and delimiter changes, without caching', () => {
    const cached = templateCacheSize();
    expect(analyzeTemplate('{{a}} {{#b}}{{b}}{{/b}} {{^d}}{{/d}}')).toEqual({ variables: ['a', 'b', 'd'], includes: [], errors: [] });
    expect(analyzeTemplate('{{> p}} {{>q@staging}} {{> r@3}}')).toEqual({ variables: [], includes: ['p', 'q@staging', 'r@3'], errors: [] });
    expect(analyzeTemplate('{{> p@latest}}').errors).toEqual([expect.stringMatching(/is not an include/)]);
    expect(analyzeTemplate('{{> a b}}').errors).toEqual([expect.stringMatching(/is not an include/)]);
    expect(analyzeTemplate('{{ > p}}').errors).toEqual([expect.stringMatching(/write an include as \{\{> p\}\}/)]);
    expect(analyzeTemplate('{{=<% %>=}}').errors).toEqual([expect.stringMatching(/delimiters/)]);
    expect(analyzeTemplate('{{#open}}').errors).toEqual([expect.stringMatching(/does not parse/)]);
    expect(templateCacheSize()).toBe(cached);
  });

  it('walks the token tree iteratively: 16,000 levels of sections are analysed without a stack overflow', () => {
    const deep = '{{#a}}'.repeat(16_000) + '{{a}}' + '{{/a}}'.repeat(16_000);
    const a = analyzeTemplate(deep);
    expect(a.variables).toEqual(['a']);
    expect(a.errors).toEqual([
      `sections are nested 16000 levels deep; the limit is ${LIMITS.sectionDepth}`,
      `the template has 16001 variable tags; the limit is ${LIMITS.referencesPerTemplate}`,
    ]);
    expect(templateInfo(deep).depth).toBe(16_000);
    // Rendering it (a version stored before the limit) is refused with a domain error, not a RangeError.
    expect(() => renderTemplate(deep, { a: 'x' })).toThrow(expect.objectContaining({ code: 'validation', message: expect.stringMatching(/nested 16000 levels/) }));
  });

  it('estimates what values add and refuses over the budget, naming the name', () => {
    expect(() => renderTemplate('{{x}}{{#x}}{{x}}{{/x}}', { x: 'abc' }, 5)).toThrow(expect.objectContaining({ code: 'validation', errors: [expect.objectContaining({ path: 'x' })] }));
    expect(renderTemplate('{{x}}{{#x}}{{x}}{{/x}}', { x: 'abc' }, 6)).toBe('abcabc');
  });

  it('refuses dotted names and {{.}} when saved and when rendered', () => {
    expect(analyzeTemplate('{{x.length}} {{.}}').errors).toEqual([expect.stringMatching(/\{\{x\.length\}\}: names with "\."/), expect.stringMatching(/\{\{\.\}\} is not supported/)]);
    expect(() => renderTemplate('{{x.constructor.name}}|{{x.length}}', { x: 'hello' })).toThrow(expect.objectContaining({ code: 'validation' }));
  });

  it('fails loudly when mustache no longer has the private cache field, or caches anyway', () => {
    class NoField extends Mustache.Writer {
      constructor() {
        super();
        delete (this as unknown as { templateCache?: unknown }).templateCache;
      }
    }
    expect(() => checkedWriter(NoField)).toThrow(/templateCache is gone/);
    class Renamed extends Mustache.Writer {
      private readonly memo = new Map<string, unknown>();
      override parse(t: string): never {
        if (!this.memo.has(t)) this.memo.set(t, super.parse(t));
        return this.memo.get(t) as never;
      }
    }
    expect(() => checkedWriter(Renamed)).toThrow(/still caches/);
    expect(() => checkedWriter()).not.toThrow();
  });
});
