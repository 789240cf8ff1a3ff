// `promptd export` never writes or deletes through a symbolic link already in the
// target directory (issue 23 #2), and a full export keeps every stored resource,
// referenced or not, so export → import is a backup of prompts and resources
// (issue 24 #8).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/index.js';
import { projectRoot } from '../../src/db/paths.js';
import { importLibrary } from '../../src/library/apply.js';
import { exportLibrary } from '../../src/library/export.js';
import { makeCore, tempDbUrl } from '../helpers/db.js';
import { BIN } from '../helpers/spawn.js';
import { tempDir, writeFiles } from '../library/helpers.js';
import { createPrompt, createResource } from '../mcp/helpers.js';

const VICTIM = 'VICTIM: must never change\n';
let url: string;
let core: Core;

/** Every file under dir (links listed as such, never followed) → content. */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out[r] = e.isSymbolicLink() ? '(link)' : readFileSync(path.join(dir, r), 'utf8');
    }
  };
  walk('');
  return out;
}

beforeAll(async () => {
  url = await tempDbUrl();
  core = await makeCore({ url });
  await createResource(core, { uri: 'notes://used', name: 'used', mimeType: 'text/plain', text: 'used by ok' });
  await createResource(core, { uri: 'notes://unused', name: 'unused', description: 'referenced by no prompt', mimeType: 'text/plain', text: 'keep me' });
  await createResource(core, { uri: 'bin://unused.bin', name: 'unused-bin', mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 255]).toString('base64') });
  await createPrompt(core, {
    name: 'ok',
    description: 'ok',
    arguments: [],
    activate: true,
    messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }, { role: 'user', content: { type: 'resource', uri: 'notes://used' } }],
  });
});
afterAll(() => core.close());

describe('export into a directory with planted links', () => {
  it('replaces a linked prompt file instead of writing through it', async () => {
    const outside = writeFiles(tempDir('pd-outside-'), { 'victim.txt': VICTIM });
    const target = tempDir('pd-export-');
    mkdirSync(path.join(target, 'prompts'));
    symlinkSync(path.join(outside, 'victim.txt'), path.join(target, 'prompts/ok.yaml'));
    await exportLibrary(core, target);
    expect(readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe(VICTIM);
    expect(lstatSync(path.join(target, 'prompts/ok.yaml')).isFile()).toBe(true);
    expect(readFileSync(path.join(target, 'prompts/ok.yaml'), 'utf8')).toMatch(/^name: ok\n/);
  });

  it('refuses a linked folder with a clear error, writes nothing, and --prune deletes nothing outside (CLI)', () => {
    const outside = writeFiles(tempDir('pd-outside-'), { 'dir/keep.txt': VICTIM });
    const target = tempDir('pd-export-');
    symlinkSync(path.join(outside, 'dir'), path.join(target, 'resources'));
    const r = spawnSync(process.execPath, [BIN, '--database-url', url, 'export', target, '--prune'], {
      cwd: projectRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LOG_LEVEL: 'warn' }, timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('resources is a symbolic link; export never writes through links');
    expect(listing(outside)).toEqual({ 'dir/keep.txt': VICTIM });
    expect(listing(target)).toEqual({ resources: '(link)' });
  });

  it('refuses a folder where a file goes, and a folder that resolves outside, before writing anything', async () => {
    const outside = tempDir('pd-outside-');
    const target = tempDir('pd-export-');
    mkdirSync(path.join(target, 'prompts/ok.yaml'), { recursive: true });
    symlinkSync(outside, path.join(target, 'media'));
    mkdirSync(path.join(target, 'resources'));
    symlinkSync(outside, path.join(target, 'resources/notes'));
    await expect(exportLibrary(core, target)).rejects.toThrow(/prompts\/ok\.yaml exists and is not a regular file\n {2}resources\/notes is a symbolic link/);
    expect(listing(target)).toEqual({ media: '(link)', 'resources/notes': '(link)' });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('--prune removes only regular files in real folders; links are left alone, and so is what they point at', async () => {
    const outside = writeFiles(tempDir('pd-outside-'), { 'victim.txt': VICTIM, 'mediadir/old.png': VICTIM, 'subdir/x.txt': VICTIM });
    const target = writeFiles(tempDir('pd-export-'), { 'prompts/stale.yaml': 'name: stale\n', 'resources/notes/stale.txt': 'old' });
    symlinkSync(path.join(outside, 'victim.txt'), path.join(target, 'prompts/link.yaml'));
    symlinkSync(path.join(outside, 'mediadir'), path.join(target, 'media'));
    symlinkSync(path.join(outside, 'subdir'), path.join(target, 'resources/notes/sub'));
    const report = await exportLibrary(core, target, { prune: true });
    expect(report.pruned).toEqual(['prompts/stale.yaml', 'resources/notes/stale.txt']);
    expect(report.notPruned).toEqual([
      'media (a symbolic link; prune only enters real directories)',
      'prompts/link.yaml (a symbolic link; prune only removes regular files)',
      'resources/notes/sub (a symbolic link; prune only removes regular files)',
    ]);
    expect(listing(outside)).toEqual({ 'victim.txt': VICTIM, 'mediadir/old.png': VICTIM, 'subdir/x.txt': VICTIM });
  });
});

describe('export keeps every stored resource (backups)', () => {
  it('writes unreferenced resources by default, and import restores them exactly', async () => {
    const dir = tempDir('pd-export-');
    const report = await exportLibrary(core, dir);
    expect(report.resources).toBe(3);
    const restored = await makeCore();
    try {
      expect((await importLibrary(restored, dir, { activate: true })).failed).toBe(false);
      const strip = async (c: Core) => {
        const out: Record<string, unknown>[] = [];
        for (const m of (await c.resources.list({ limit: 200 })).items) {
          const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = (await c.resources.get(m.id)) as unknown as Record<string, unknown>;
          out.push({ ...rest, blob: rest.blob ? Buffer.from(rest.blob as Uint8Array).toString('base64') : null });
        }
        return out.sort((a, b) => String(a.uri).localeCompare(String(b.uri)));
      };
      expect(await strip(restored)).toEqual(await strip(core));
      // And exporting the restored copy gives the same bytes.
      const again = tempDir('pd-export-');
      await exportLibrary(restored, again);
      expect(listing(again)).toEqual(listing(dir));
    } finally {
      await restored.close();
    }
  });

  it('--no-all-resources writes only what the exported versions reference', async () => {
    const dir = tempDir('pd-export-');
    const report = await exportLibrary(core, dir, { allResources: false });
    expect(report.resources).toBe(1);
    expect(readFileSync(path.join(dir, 'resources.yaml'), 'utf8')).not.toContain('unused');
    expect(existsSync(path.join(dir, 'resources/notes/used.txt'))).toBe(true);
  });
});
