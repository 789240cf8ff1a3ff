// Each format's richest fixture through the database (issue #37, item 3): import →
// export → import → export on real databases (SQLite, or PostgreSQL with
// PROMPTD_TEST_DB=postgres). The first export parses equal to the fixture (front matter
// and body, or the Langfuse JSON objects): roles (system), the Langfuse name
// `support/faq`-style names and references, labels, Dotprompt's model and config, the
// Claude commands namespace all come back. The second export is byte-identical to the first.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../../helpers/db.js';
import { VersionInputSchema } from '../../../src/core/schemas.js';
import { exportFormat } from '../../../src/library/format-export.js';
import { importFormat } from '../../../src/library/format-import.js';
import { splitFrontMatter } from '../../../src/library/formats/common.js';
import type { FormatId } from '../../../src/library/formats/index.js';
import { freshCore, tempDir } from '../helpers.js';
import { FIXTURES, fixtureFiles } from './helpers.js';

const cores: TestCore[] = [];
afterEach(async () => {
  for (const c of cores.splice(0)) await c.db.close();
});
async function core() {
  const c = await freshCore();
  cores.push(c);
  return c;
}

function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out[r] = readFileSync(path.join(dir, r), 'utf8');
    }
  };
  walk('');
  return out;
}

/** A front matter file as data: the YAML parsed, the body without surrounding blank lines or `{{ x }}` spacing. */
function parsedFile(text: string) {
  const fm = splitFrontMatter(text, ['argument-hint', 'description']);
  return { data: fm.data, body: fm.body.replace(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g, '{{$1}}').trim() };
}

/** Langfuse files as prompt objects by name (a file may hold one prompt or a list). */
function langfuseObjects(files: Record<string, string>) {
  const out: Record<string, unknown> = {};
  for (const text of Object.values(files)) {
    const data = JSON.parse(text) as unknown;
    for (const p of (Array.isArray(data) ? data : [data]) as { name: string }[]) out[p.name] = p;
  }
  return out;
}

async function roundTrip(format: FormatId) {
  const a = await core();
  const imported = await importFormat(a, path.join(FIXTURES, format), format, { activate: true });
  expect(imported.failed).toBe(false);
  const first = tempDir(`pd-rt-${format}-`);
  expect((await exportFormat(a, first, format)).warnings).toEqual([]);
  const b = await core();
  expect((await importFormat(b, first, format, { activate: true })).failed).toBe(false);
  const second = tempDir(`pd-rt-${format}-`);
  await exportFormat(b, second, format);
  return { imported, first: filesOf(first), second: filesOf(second) };
}

const fixture = (format: FormatId) => Object.fromEntries(fixtureFiles(format).map((f) => [f.path, f.text]));

describe.each(['claude-commands', 'prompt-md', 'dotprompt', 'prompty'] as const)('%s: import → export → import → export', (format) => {
  it('the first export parses equal to the fixture, file by file; the second is byte-identical', async () => {
    const { first, second } = await roundTrip(format);
    const want = fixture(format);
    expect(Object.keys(first).sort()).toEqual(Object.keys(want).sort()); // `.claude/commands/git/commit.md` stays there
    for (const [file, text] of Object.entries(want)) expect({ file, ...parsedFile(first[file]!) }).toEqual({ file, ...parsedFile(text) });
    expect(second).toEqual(first);
  }, 120_000);
});

describe('langfuse: import → export → import → export', () => {
  it('every prompt object comes back equal (name support/agent, references, labels, system role); the second export is byte-identical', async () => {
    const { first, second } = await roundTrip('langfuse');
    expect(langfuseObjects(first)).toEqual(langfuseObjects(fixture('langfuse')));
    expect(second).toEqual(first);
  }, 120_000);
});

describe('what the round trip keeps, named', () => {
  it('dotprompt: model, config and the system role; the import warns only about what it cannot keep', async () => {
    const { imported, first } = await roundTrip('dotprompt');
    const support = parsedFile(first['prompts/support.prompt']!);
    expect(support.data.model).toBe('googleai/gemini-2.0-flash');
    expect(support.body).toMatch(/^\{\{role "system"\}\}/);
    expect(support.body).toContain('{{#each topics}}');
    // The role warning promises the export restores it, and it does (above).
    expect(imported.warnings.map((w) => w.message).filter((m) => /system/.test(m))).toEqual([expect.stringContaining('an export in this format restores the role')]);
  }, 120_000);

  it('an edit of the messages keeps the name and labels but not the roles; the imported messages again get them back', async () => {
    const a = await core();
    await importFormat(a, path.join(FIXTURES, 'langfuse'), 'langfuse', { activate: true });
    const v = (await a.prompts.get('support-agent')).latest;
    await a.prompts.createVersion('support-agent', VersionInputSchema.parse({
      arguments: v.arguments,
      messages: [{ role: 'user', content: { type: 'text', text: 'New first message {{product}}' } }, ...v.messages],
    }), { name: 'ui' });
    const out = tempDir('pd-rt-edit-');
    await exportFormat(a, out, 'langfuse', { latest: true });
    const agent = langfuseObjects(filesOf(out))['support/agent'] as { labels: string[]; prompt: { role?: string }[] };
    expect(agent.labels).toEqual(['staging']);
    expect(agent.prompt.map((m) => m.role ?? 'placeholder')).toEqual(['user', 'user', 'placeholder', 'user']);

    // A version with the imported messages again (only the note differs): the roles come back.
    await a.prompts.createVersion('support-agent', VersionInputSchema.parse({ arguments: v.arguments, messages: v.messages, note: 'back to the import' }), { name: 'ui' });
    await exportFormat(a, out, 'langfuse', { latest: true });
    const again = langfuseObjects(filesOf(out))['support/agent'] as { prompt: { role?: string }[] };
    expect(again.prompt.map((m) => m.role ?? 'placeholder')).toEqual(['system', 'placeholder', 'user']);
  }, 120_000);
});
