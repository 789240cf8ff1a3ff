// Typed arguments in the core: parsing by type, defaults, the JSON Schema, and the
// write-time checks (default validation, unused required argument warnings).
import { describe, expect, it } from 'vitest';
import { argumentsJsonSchema, completionCandidates, parseTyped, resolveArguments } from '../../src/core/arguments.js';
import { renderTemplate } from '../../src/core/template.js';
import { validateVersion, versionWarnings } from '../../src/core/validate-version.js';
import { VersionInputSchema } from '../../src/core/schemas.js';
import type { Argument } from '../../src/core/types.js';

const arg = (a: Partial<Argument> & { name: string }): Argument => ({ type: 'string', default: null, title: null, description: null, required: false, choices: null, maxLength: null, ...a });
const version = (v: Record<string, unknown>) => VersionInputSchema.parse(v);

describe('parseTyped', () => {
  it('parses integers, numbers and booleans from strings and takes JSON values that fit', () => {
    expect(parseTyped('integer', ' 42 ')).toBe(42);
    expect(parseTyped('integer', '-7')).toBe(-7);
    expect(parseTyped('integer', 3)).toBe(3);
    for (const bad of ['ten', '4.5', '', '0x10', '1e3', 4.5, true, '99999999999999999999']) expect(parseTyped('integer', bad)).toBeUndefined();
    expect(parseTyped('number', '4.5')).toBe(4.5);
    expect(parseTyped('number', '-.5e2')).toBe(-50);
    for (const bad of ['Infinity', 'NaN', '', '1,5', '0x10', 'abc']) expect(parseTyped('number', bad)).toBeUndefined();
    expect(parseTyped('boolean', 'TRUE')).toBe(true);
    expect(parseTyped('boolean', 'false')).toBe(false);
    expect(parseTyped('boolean', false)).toBe(false);
    for (const bad of ['yes', '1', 1, '']) expect(parseTyped('boolean', bad)).toBeUndefined();
    expect(parseTyped('string', '3')).toBe('3');
    expect(parseTyped('string', 3)).toBeUndefined();
  });
});

describe('resolveArguments', () => {
  const args = [
    arg({ name: 'count', type: 'integer', required: true }),
    arg({ name: 'ratio', type: 'number', default: 0.5 }),
    arg({ name: 'loud', type: 'boolean', default: false }),
    arg({ name: 'tone', choices: ['calm', 'firm'], default: 'calm' }),
    arg({ name: 'size', type: 'integer', choices: ['1', '2'] }),
  ];

  it('parses values by type and fills defaults for missing optional arguments (an empty string is missing)', () => {
    const r = resolveArguments('p', args, { count: '3', loud: '', size: '2' });
    expect(r.errors).toEqual([]);
    expect({ ...r.values }).toEqual({ count: 3, ratio: 0.5, loud: false, tone: 'calm', size: 2 });
  });

  it('names the argument, the type and the value it got', () => {
    const r = resolveArguments('p', args, { count: 'ten', ratio: 'half', loud: 'yes', size: '3' });
    expect(r.errors).toEqual([
      { path: 'arguments.count', message: 'argument "count" must be an integer (got "ten")' },
      { path: 'arguments.ratio', message: 'argument "ratio" must be a number (got "half")' },
      { path: 'arguments.loud', message: 'argument "loud" must be true or false (got "yes")' },
      { path: 'arguments.size', message: 'argument "size" must be one of: 1, 2 (got "3")' },
    ]);
    expect(resolveArguments('p', args, {}).errors).toEqual([{ path: 'arguments.count', message: 'missing required argument "count" for prompt "p"' }]);
  });
});

describe('argumentsJsonSchema', () => {
  it('carries types, typed enums, defaults, maxLength (strings only), required and descriptions', () => {
    expect(argumentsJsonSchema([
      arg({ name: 'count', type: 'integer', required: true, description: 'how many' }),
      arg({ name: 'level', type: 'integer', choices: ['1', '2'], default: 1 }),
      arg({ name: 'loud', type: 'boolean', default: true }),
      arg({ name: 'topic', maxLength: 20, choices: ['a', 'b'], default: 'a', title: 'Topic' }),
    ])).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer', description: 'how many' },
        level: { type: 'integer', enum: [1, 2], default: 1 },
        loud: { type: 'boolean', default: true },
        topic: { type: 'string', title: 'Topic', enum: ['a', 'b'], maxLength: 20, default: 'a' },
      },
      required: ['count'],
      additionalProperties: false,
    });
  });

  it('completion offers true/false for a boolean, choices otherwise', () => {
    expect(completionCandidates(arg({ name: 'b', type: 'boolean' }))).toEqual(['true', 'false']);
    expect(completionCandidates(arg({ name: 's' }))).toEqual([]);
    expect(completionCandidates(arg({ name: 'c', choices: ['x'] }))).toEqual(['x']);
  });
});

describe('rendering typed values', () => {
  it('a false boolean skips its section and renders as "false"; numbers render as text', () => {
    const t = '{{#loud}}LOUD {{/loud}}{{^loud}}quiet {{/loud}}{{loud}} x{{count}}';
    expect(renderTemplate(t, { loud: false, count: 3 })).toBe('quiet false x3');
    expect(renderTemplate(t, { loud: true, count: 0 })).toBe('LOUD true x0');
  });
});

describe('write-time checks', () => {
  const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });

  it('a default must fit the type, the choices and maxLength; required with a default is refused', () => {
    const errors = validateVersion(version({
      arguments: [
        { name: 'a', type: 'integer', default: '3' },
        { name: 'b', type: 'integer', default: 2.5 },
        { name: 'c', choices: ['x', 'y'], default: 'z' },
        { name: 'd', maxLength: 2, default: 'long' },
        { name: 'e', type: 'boolean', required: true, default: true },
        { name: 'f', type: 'integer', choices: ['1', 'two'] },
        { name: 'g', type: 'number', default: 1.5, choices: ['1.5', '2'] },
      ],
      messages: [text('{{a}}{{b}}{{c}}{{d}}{{e}}{{f}}{{g}}')],
    }), new Map());
    expect(errors).toEqual([
      { path: 'arguments[0].default', message: 'the default must be an integer (the argument\'s type; got the string "3")' },
      { path: 'arguments[1].default', message: 'the default must be an integer (the argument\'s type; got 2.5)' },
      { path: 'arguments[2].default', message: 'the default "z" is not one of the choices (x, y)' },
      { path: 'arguments[3].default', message: 'the default is 4 characters long; maxLength is 2' },
      { path: 'arguments[4].default', message: 'a required argument never uses its default: make the argument optional or remove the default' },
      { path: 'arguments[5].choices', message: 'choice "two" is not an integer (the argument\'s type)' },
    ]);
  });

  it('an undeclared variable is an error naming the field; sections count as use, comments do not', () => {
    const errors = validateVersion(version({ arguments: [{ name: 'a' }], messages: [text('{{#a}}{{b}}{{/a}}{{! c }}')] }), new Map());
    expect(errors).toEqual([{ path: 'messages[0].content.text', message: '{{b}} is not a declared argument' }]);
  });

  it('warns about a required argument no template uses (sections, inverted sections and URI templates are uses)', () => {
    const v = version({
      arguments: [
        { name: 'used', required: true },
        { name: 'section', required: true },
        { name: 'inverted', required: true },
        { name: 'path', required: true },
        { name: 'unused', required: true },
        { name: 'optional' },
      ],
      messages: [text('{{used}} {{#section}}x{{/section}}{{^inverted}}y{{/inverted}}'), { role: 'user', content: { type: 'resource', uri: 'file:///{path}' } }],
    });
    expect(versionWarnings(v)).toEqual([
      { path: 'arguments[4]', message: 'required argument "unused" is not used by any template: clients must send it and it changes nothing; use it or make it optional' },
    ]);
  });

  it('no unused-argument warnings when a template includes another prompt (it may read any argument)', () => {
    const args = [{ name: 'topic', required: true }];
    expect(versionWarnings({ arguments: args, messages: [text('Intro {{> shared-footer}}')] } as never)).toEqual([]);
    expect(versionWarnings({ arguments: args, messages: [text('Intro')] } as never)).toHaveLength(1);
    // An include message with an argument map uses what its templates name.
    const include = (a?: Record<string, string>) => ({ role: 'user', content: { type: 'include', prompt: 'other', ...(a ? { arguments: a } : {}) } });
    expect(versionWarnings({ arguments: args, messages: [include({ subject: '{{topic}}' })] } as never)).toEqual([]);
    expect(versionWarnings({ arguments: args, messages: [include({ subject: 'fixed' })] } as never)).toHaveLength(1);
    expect(versionWarnings({ arguments: args, messages: [include()] } as never)).toEqual([]);
  });
});
