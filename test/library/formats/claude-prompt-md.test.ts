// Claude Code commands and VS Code prompt files: arguments from $ARGUMENTS/$1…$9 and
// ${input:…}, names from folders, warnings with lines for what promptd does not do.
import { describe, expect, it } from 'vitest';
import { FORMATS, readFormats } from '../../../src/library/formats/index.js';
import { renderTemplate } from '../../../src/core/template.js';
import { fixtureFiles, semantics } from './helpers.js';

const claude = readFormats(fixtureFiles('claude-commands'), 'claude-commands');
const get = (name: string) => semantics(claude.prompts.find((p) => p.name === name)!);

describe('Claude Code commands', () => {
  it('subfolders become name prefixes and $ARGUMENTS one optional argument described by argument-hint', () => {
    const p = get('git-commit');
    expect(p.description).toBe('Create a git commit');
    expect(p.arguments).toEqual([{ name: 'arguments', required: false, description: '[message]', choices: null }]);
    expect(p.messages).toHaveLength(1);
    expect(p.messages[0]!.text).toMatch(/Use this message if given: \{\{arguments\}\}$/);
    expect(p.meta.model).toBe('claude-3-5-haiku-20241022');
    const meta = claude.prompts.find((x) => x.name === 'git-commit')!.meta;
    expect(meta.extra).toMatchObject({ namespace: 'git', 'allowed-tools': 'Bash(git add:*), Bash(git status:*), Bash(git commit:*)' });
  });

  it('$1…$3 become positional arguments named by argument-hint', () => {
    const p = get('review-pr');
    expect(p.arguments.map((a) => a.name)).toEqual(['pr_number', 'priority', 'assignee']);
    expect(p.messages[0]!.text).toContain('Review PR #{{pr_number}} with priority {{priority}} and assign to {{assignee}}.');
    expect(renderTemplate(p.messages[0]!.text, { pr_number: '42', priority: 'high', assignee: 'ana' })).toContain('Review PR #42 with priority high and assign to ana.');
  });

  it('skills are read from SKILL.md with the folder as name', () => {
    expect(get('release-notes').description).toMatch(/^Drafts release notes/);
    expect(get('fix-issue').arguments.map((a) => a.name)).toEqual(['arguments']);
  });

  it('warns, with lines, about shell commands and file references kept verbatim', () => {
    expect(claude.warnings).toEqual(expect.arrayContaining([
      { file: '.claude/commands/git/commit.md', line: 10, message: expect.stringContaining('!`git status`: shell command kept verbatim') },
      { file: '.claude/commands/git/commit.md', line: 11, message: expect.stringContaining('!`git diff HEAD`') },
      { file: '.claude/commands/review-pr.md', line: 8, message: expect.stringContaining('@docs/review-guidelines.md: file reference kept verbatim') },
    ]));
  });

  it('a $N the hint does not name becomes argN, with a warning', () => {
    const r = FORMATS['claude-commands'].read([{ path: 'x.md', text: 'Do $1 then $2\n' }]);
    expect(r.prompts[0]!.versions[0]!.input.arguments.map((a) => a.name)).toEqual(['arg1', 'arg2']);
    expect(r.warnings.filter((w) => w.line === 1)).toHaveLength(2);
  });

  it('export writes $N back with a hint naming them, and warns about what commands cannot say', () => {
    const out = FORMATS['claude-commands'].write({
      name: 'ship',
      input: { title: 'Ship it', arguments: [{ name: 'env', required: true, choices: ['prod', 'dev'] }], messages: [{ role: 'user', content: { type: 'text', text: 'Deploy to {{env}}{{#env}}!{{/env}}' } }] },
    });
    expect(out.files[0]).toEqual({ path: '.claude/commands/ship.md', text: '---\nargument-hint: "[env]"\n---\nDeploy to $1{{#env}}!{{/env}}\n' });
    expect(out.warnings.map((w) => w.message).join('\n')).toMatch(/title "Ship it"[\s\S]*choices left out[\s\S]*\{\{#env\}\} kept verbatim[\s\S]*no required arguments/);
  });
});

describe('VS Code prompt files', () => {
  const r = readFormats(fixtureFiles('prompt-md'), 'prompt-md');
  const p = (name: string) => semantics(r.prompts.find((x) => x.name === name)!);

  it('${input:name:placeholder} becomes a required argument described by the placeholder', () => {
    const form = p('create-react-form');
    expect(form.arguments).toEqual([
      { name: 'formName', required: true, description: 'Name of the form, e.g. SignupForm', choices: null },
      { name: 'fields', required: true, description: 'Comma-separated field names', choices: null },
    ]);
    expect(form.messages[0]!.text).toContain('named {{formName}}.');
    expect(form.messages[0]!.text).toContain('Put {{formName}} in its own file next to ${file}');
    expect(form.meta.model).toBe('GPT-4o');
    expect(r.prompts.find((x) => x.name === 'create-react-form')!.meta.extra).toEqual({ mode: 'agent', tools: ['githubRepo', 'codebase'] });
  });

  it('name from front matter, context variables kept verbatim with a warning and line', () => {
    expect(p('explain-code').arguments.map((a) => a.name)).toEqual(['audience']);
    expect(r.warnings).toContainEqual({ file: '.github/prompts/explain-code.prompt.md', line: 8, message: expect.stringContaining('${selection}') });
  });
});
