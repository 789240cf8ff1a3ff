// Dotprompt, Prompty and Langfuse: schemas/inputs to arguments, role blocks to
// messages (system kept as a user message with its role recorded), template features
// translated or kept with line-numbered warnings, includes as {{!> …}} comments.
import { describe, expect, it } from 'vitest';
import { FORMATS, readFormats } from '../../../src/library/formats/index.js';
import { renderTemplate } from '../../../src/core/template.js';
import { fixtureFiles, semantics } from './helpers.js';

const pick = (r: ReturnType<typeof readFormats>, name: string) => semantics(r.prompts.find((p) => p.name === name)!);

describe('Dotprompt', () => {
  const r = readFormats(fixtureFiles('dotprompt'), 'dotprompt');

  it('Picoschema: types, optional ?, descriptions, enums; input.default becomes the argument default (and makes it optional)', () => {
    expect(pick(r, 'greeting').arguments).toEqual([
      { name: 'location', required: false, description: 'Where the guest is', choices: null, default: 'a restaurant' },
      { name: 'style', required: false, description: null, choices: null },
      { name: 'name', required: false, description: null, choices: null },
    ]);
    expect(pick(r, 'greeting').meta.defaults).toBeNull();
    expect(pick(r, 'support').arguments.map((a) => [a.name, a.required, a.choices, a.type ?? 'string'])).toEqual([
      ['question', true, null, 'string'], ['tone', true, ['friendly', 'formal'], 'string'], ['topics', false, null, 'string'], ['maxWords', false, null, 'integer'],
    ]);
  });

  it('{{#if}} becomes a Mustache section that renders the same way', () => {
    const text = pick(r, 'greeting').messages[0]!.text;
    expect(text).toContain('Greet a guest{{#name}} named {{name}}{{/name}}{{#style}} in the style of {{style}}{{/style}}.');
    expect(renderTemplate(text, { location: 'a bar', name: 'Ann' })).toContain('Greet a guest named Ann.');
  });

  it('{{role}} blocks become messages; system → user with the role recorded, model → assistant', () => {
    const s = pick(r, 'support');
    expect(s.messages.map((m) => [m.role, m.was])).toEqual([['user', 'system'], ['user', null], ['assistant', 'model']]);
    expect(s.messages[0]!.text).toBe('You are a support agent. Answer in a {{tone}} tone.\n{{!> policy}}');
    expect(s.messages[1]!.text).toContain('{{^maxWords}}Keep it short.{{/maxWords}}{{#maxWords}}Use at most {{maxWords}} words.{{/maxWords}}');
    expect(s.messages[1]!.text).toContain('{{!hbs json question}}');
    // The include comment and the kept helper render nothing; the partial is its own prompt.
    expect(renderTemplate(s.messages[0]!.text, { tone: 'calm' })).toBe('You are a support agent. Answer in a calm tone.\n');
    expect(pick(r, 'policy').messages[0]!.text).toMatch(/^Never promise refunds/);
  });

  it('warns with lines about partials, system roles, each and helpers', () => {
    const w = r.warnings.filter((x) => x.file === 'prompts/support.prompt');
    expect(w).toEqual(expect.arrayContaining([
      { file: 'prompts/support.prompt', line: 15, message: expect.stringContaining('"system" message imported as a user message') },
      { file: 'prompts/support.prompt', line: 17, message: expect.stringContaining('partial {{> policy}}') },
      { file: 'prompts/support.prompt', line: 21, message: expect.stringContaining('{{#each topics}}') },
      { file: 'prompts/support.prompt', line: 24, message: expect.stringContaining('{{json question}}: helper') },
      { file: 'prompts/support.prompt', message: expect.stringContaining('topics is of type array') },
    ]));
  });

  it('export restores partials, roles, helpers and the original schema', () => {
    const p = r.prompts.find((x) => x.name === 'support')!;
    const text = FORMATS.dotprompt.write({ name: p.name, input: p.versions[0]!.input, meta: p.meta }).files[0]!.text;
    expect(text).toContain('{{role "system"}}\nYou are a support agent. Answer in a {{tone}} tone.\n{{> policy}}\n');
    expect(text).toContain('{{#unless maxWords}}Keep it short.{{else}}Use at most {{maxWords}} words.{{/unless}}');
    expect(text).toContain('{{json question}}');
    expect(text).toContain('{{role "model"}}');
    expect(text).toContain('tone(enum, How to sound):');
    expect(text).toContain('maxWords?: integer, Upper bound on answer length');
  });
});

describe('Prompty', () => {
  const r = readFormats(fixtureFiles('prompty'), 'prompty');

  it('map-form inputs with description, required and default; name becomes the title', () => {
    const b = pick(r, 'basic');
    expect(b.title).toBe('Basic Prompt');
    expect(b.arguments).toEqual([
      { name: 'firstName', required: false, description: "The customer's first name", choices: null, default: 'Jane' },
      { name: 'question', required: true, description: 'What the customer asks', choices: null },
    ]);
    expect(b.meta.defaults).toBeNull();
    expect(b.messages.map((m) => [m.role, m.was])).toEqual([['user', 'system'], ['user', null]]);
  });

  it('list-form inputs; Jinja if/else translate, loops are kept and warned about with lines', () => {
    const c = pick(r, 'chat');
    expect(c.arguments.map((a) => [a.name, a.required])).toEqual([['customer', true], ['documents', false], ['question', false]]);
    expect(c.messages.map((m) => [m.role, m.was])).toEqual([['user', 'system'], ['user', null], ['assistant', null]]);
    const sys = c.messages[0]!.text;
    expect(renderTemplate(sys, { customer: '' })).toContain('The customer is anonymous.');
    expect(renderTemplate(sys, { customer: 'Kim' })).toContain("The customer's name is Kim.");
    expect(sys).toContain('{% for doc in documents %}');
    const lines = r.warnings.filter((w) => w.file === 'chat.prompty').map((w) => [w.line, w.message.slice(0, 24)]);
    expect(lines).toEqual(expect.arrayContaining([[26, '{% for doc in documents '], [27, '{{ doc.title }}: uses a '], [28, '{% endfor %}: Jinja stat']]));
  });

  it('export writes role markers and Jinja back, in the input form it came in', () => {
    const p = r.prompts.find((x) => x.name === 'chat')!;
    const text = FORMATS.prompty.write({ name: p.name, input: p.versions[0]!.input, meta: p.meta }).files[0]!.text;
    expect(text).toContain('inputs:\n  - name: customer\n');
    expect(text).toContain('{% if customer %}The customer\'s name is {{customer}}.{% else %}The customer is anonymous.{% endif %}');
    expect(text).toContain('- {{ doc.title }}: {{ doc.content | truncate(200) }}');
    expect(text).toMatch(/^system:\n/m);
    expect(text).toMatch(/^assistant:\nLet me look that up/m);
  });
});

describe('Langfuse', () => {
  const r = readFormats(fixtureFiles('langfuse'), 'langfuse');

  it('a text prompt: variables become required arguments; labels, tags, config, version kept; commitMessage is the note', () => {
    const s = pick(r, 'summarize');
    expect(s.arguments.map((a) => [a.name, a.required])).toEqual([['language', true], ['sentences', true], ['text', true]]);
    expect(s.note).toBe('Shorter summaries');
    expect(s.meta).toMatchObject({ labels: ['production', 'latest'], tags: ['summaries'], config: { model: 'gpt-4o-mini', temperature: 0.3 }, version: 3 });
  });

  it('a list of chat prompts: folders in names become "-", references become include comments, placeholders kept', () => {
    const a = pick(r, 'support-agent');
    expect(a.messages).toEqual([
      { role: 'user', was: 'system', text: 'You are a support agent for {{product}}.\n{{!> support-tone@production}}' },
      { role: 'user', was: null, text: '{{!placeholder history}}' },
      { role: 'user', was: null, text: '{{question}}' },
    ]);
    expect(pick(r, 'support-tone').messages[0]!.text).toContain('{{!> legal-footer@2}}');
    expect(r.warnings).toContainEqual({ file: 'prompts.json', line: 18, message: expect.stringContaining('@@@langfusePrompt:name=legal-footer|version=2@@@') });
  });

  it('export restores references, placeholders and roles', () => {
    const p = r.prompts.find((x) => x.name === 'support-agent')!;
    const json = JSON.parse(FORMATS.langfuse.write({ name: p.name, input: p.versions[0]!.input, meta: p.meta }).files[0]!.text);
    expect(json.name).toBe('support/agent');
    expect(json.prompt[0]).toEqual({ role: 'system', content: 'You are a support agent for {{product}}.\n@@@langfusePrompt:name=support/tone|label=production@@@' });
    expect(json.prompt[1]).toEqual({ type: 'placeholder', name: 'history' });
  });
});
