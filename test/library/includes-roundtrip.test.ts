// Include messages and `{{> x}}` includes survive export → import in the promptd
// YAML format: the files say `include: {prompt, label?, version?, arguments?}`, the
// imported prompts render exactly as the originals, and re-exporting gives the same bytes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCore } from '../helpers/db.js';
import { importLibrary } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { freshCore, tempDir } from './helpers.js';

const actor = { name: 'test' };
const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${e}` : e;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else out[r] = readFileSync(path.join(dir, r), 'utf8');
    }
  };
  walk('');
  return out;
}

let source: TestCore;
beforeAll(async () => {
  source = await freshCore();
  await source.prompts.create({ name: 'frag', arguments: [{ name: 'tone', required: true }], messages: [text('Be {{tone}}.')], activate: true }, actor);
  await source.prompts.create({
    name: 'composed',
    arguments: [{ name: 'tone', required: true }, { name: 'topic', required: false }],
    messages: [
      text('{{> frag}}\nTopic: {{topic}}'),
      { role: 'assistant', content: { type: 'include', prompt: 'frag', version: 1, arguments: { tone: 'about {{topic}}' } } },
    ],
    activate: true,
  }, actor);
}, 60_000);
afterAll(() => source.close());

describe('includes in the promptd library format', () => {
  it('export writes include messages, import restores them, renders and bytes match', async () => {
    const dir = tempDir('pd-inc-');
    await exportLibrary(source, dir);
    const yaml = readFileSync(path.join(dir, 'prompts/composed.yaml'), 'utf8');
    expect(yaml).toContain('include:\n      prompt: frag\n      version: 1\n      arguments:\n        tone: about {{topic}}');
    expect(yaml).toContain('{{> frag}}');
    const target = await freshCore();
    try {
      const r = await importLibrary(target, dir, { activate: true });
      expect(r.failed).toBe(false);
      await source.catalog.ready();
      await target.catalog.ready();
      const args = { tone: 'calm', topic: '{{> frag}}' };
      const [a, b] = [await source.catalog.render('composed', args), await target.catalog.render('composed', args)];
      expect(b).toEqual(a);
      expect(a.messages.map((m) => [m.role, (m.content as { text: string }).text])).toEqual([
        ['user', 'Be calm.\nTopic: {{> frag}}'],
        ['user', 'Be about {{> frag}}.'],
      ]);
      const again = tempDir('pd-inc-');
      await exportLibrary(target, again);
      expect(tree(again)).toEqual(tree(dir));
    } finally {
      await target.close();
    }
  });
});
