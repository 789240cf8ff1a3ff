import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Mustache from 'mustache';
import { analyzeTemplate, renderTemplate, templateCacheSize } from '../../src/core/template.js';

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

  it('analysis finds variables and rejects partials and delimiter changes without caching', () => {
    expect(analyzeTemplate('{{a}} {{#b.c}}{{.}}{{/b.c}} {{^d}}{{/d}}').variables.sort()).toEqual(['a', 'b', 'd']);
    expect(analyzeTemplate('{{> p}}').error).toMatch(/partials/);
    expect(analyzeTemplate('{{=<% %>=}}').error).toMatch(/delimiters/);
    expect(analyzeTemplate('{{#open}}').error).toBeTruthy();
  });
});
