// Auto-detection by extension, location and front matter; bad files become per-file
// problems with a path, never exceptions, and the other files still convert.
import { describe, expect, it } from 'vitest';
import { detectFormat, readFormats } from '../../../src/library/formats/index.js';
import { fixtureFiles } from './helpers.js';

describe('detectFormat', () => {
  const d = (path: string, text = '') => detectFormat({ path, text });
  it.each([
    ['a/b.prompty', '', 'prompty'],
    ['prompts/x.prompt', '', 'dotprompt'],
    ['x.prompt.md', '', 'prompt-md'],
    ['.github/prompts/review.md', '', 'prompt-md'],
    ['.claude/commands/git/commit.md', '', 'claude-commands'],
    ['project/.claude/skills/pdf/SKILL.md', '', 'claude-commands'],
    ['notes/cmd.md', '---\nargument-hint: "[x]"\n---\nDo $1', 'claude-commands'],
    ['notes/ask.md', '---\nmode: agent\n---\nHi', 'prompt-md'],
    ['notes/ask2.md', 'Explain ${input:topic}', 'prompt-md'],
    ['notes/fix.md', 'Fix #$ARGUMENTS', 'claude-commands'],
    ['export.json', '{"name":"a","type":"text","prompt":"Hi"}', 'langfuse'],
    ['export.json', '{"data":[{"name":"a","prompt":"Hi"}]}', 'langfuse'],
    ['prompts/a.json', '{"name":"a","messages":[]}', 'promptd'],
    ['prompts/a.yaml', 'name: a\nmessages: []\n', 'promptd'],
  ])('%s → %s', (path, text, want) => {
    expect(d(path, text)).toBe(want);
  });
  it('claims nothing for plain Markdown, other JSON and resources.yaml', () => {
    expect(d('README.md', '# Hello\nJust notes.')).toBeUndefined();
    expect(d('package.json', '{"name":"x","version":"1.0.0"}')).toBeUndefined();
    expect(d('resources.yaml', 'resources: []\n')).toBeUndefined();
  });
  it('mixed fixture folders read in one auto run, each file in its own format', () => {
    const files = ['claude-commands', 'prompt-md', 'dotprompt', 'prompty', 'langfuse'].flatMap((dir) => fixtureFiles(dir).map((f) => ({ ...f, path: `${dir}/${f.path}` })));
    const r = readFormats(files, 'auto');
    expect(r.problems).toEqual([]);
    expect(new Set(r.prompts.map((p) => p.meta.format))).toEqual(new Set(['claude-commands', 'prompt-md', 'dotprompt', 'prompty', 'langfuse']));
    expect(r.prompts).toHaveLength(14);
  });
});

describe('bad files', () => {
  const r = readFormats(fixtureFiles('bad'), 'auto');
  const problem = (file: string) => r.problems.filter((p) => p.file === file).flatMap((p) => p.errors);

  it('are per-file problems naming the place, and good entries beside them still convert', () => {
    expect(problem('broken-yaml.prompt')[0]).toEqual({ path: 'line 6', message: expect.any(String) });
    expect(problem('unclosed.prompt')).toEqual([{ path: 'messages[0].content.text', message: expect.stringContaining('template does not parse') }]);
    expect(problem('.claude/commands/literal-braces.md')).toEqual([{ path: 'messages[0].content.text', message: '{{name}} is not a declared argument' }]);
    expect(problem('mixed.json').map((e) => e.path)).toEqual(['[1].prompt', '[2].prompt']);
    expect(problem('syntax.json')).toEqual([{ path: 'line 4', message: expect.stringContaining('not JSON') }]);
    expect(problem('empty.prompty')).toEqual([{ path: '(file)', message: 'the prompt has no text' }]);
    expect(r.prompts.map((p) => p.name)).toEqual(['ok']);
    expect(r.skipped).toEqual(['README.md']);
  });

  it('the same prompt name from two files is a problem of the later file', () => {
    const dup = readFormats([
      { path: 'a/greet.prompt', text: 'Hi' },
      { path: 'b/greet.prompty', text: 'user:\nHello' },
    ], 'auto');
    expect(dup.prompts.map((p) => p.file)).toEqual(['a/greet.prompt']);
    expect(dup.problems).toEqual([{ file: 'b/greet.prompty', errors: [{ path: 'name', message: 'prompt "greet" is also defined in a/greet.prompt' }] }]);
  });

  it('an explicit format skips files it does not read', () => {
    const only = readFormats(fixtureFiles('bad'), 'prompty');
    expect(only.skipped).not.toContain('empty.prompty');
    expect(only.skipped).toContain('mixed.json');
  });
});
