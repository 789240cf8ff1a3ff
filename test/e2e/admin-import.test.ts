// The import dialog against a real server: files dropped (a real drop event carrying
// File objects) and picked, the server's dry-run plan with warnings and errors, Apply,
// and the list showing the imported prompts; axe-core finds 0 violations throughout.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../library/formats/helpers.js';
import { rest, shot, signIn } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI: import dialog', () => {
  const { setup } = useE2E();

  it('drop files, read the plan, apply; bad files block until skipped', async () => {
    const { server, page, errors } = await setup();
    await signIn(page, server.url);
    await page.getByTestId('import-open').click();
    const dialog = page.getByRole('dialog', { name: 'Import prompts' });
    await dialog.waitFor();
    await expectNoAxeViolations(page, 'import dialog (empty)');

    // A real drop: a DataTransfer holding File objects, dispatched on the drop zone.
    const prompty = fixtureFiles('prompty');
    const transfer = await page.evaluateHandle((files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([f.text], f.path, { type: 'text/plain' }));
      return dt;
    }, prompty);
    await page.getByTestId('import-drop').dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByTestId('import-status').filter({ hasText: 'Plan: 2 new' }).waitFor();
    const chat = page.locator('[data-testid="import-row"][data-file="chat.prompty"]');
    expect(await chat.getAttribute('data-action')).toBe('create');
    expect(await chat.getByTestId('import-warning').allTextContents()).toContainEqual(expect.stringContaining('line 26: {% for doc in documents %}'));
    await expectNoAxeViolations(page, 'import dialog (plan)');
    await shot(page, 'import-plan');

    // A broken file picked next to them: the plan names it and Apply waits.
    const bad = fixtureFiles('bad').find((f) => f.path === 'unclosed.prompt')!;
    await page.getByTestId('import-files').setInputFiles([{ name: bad.path, mimeType: 'text/plain', buffer: Buffer.from(bad.text) }]);
    await page.getByTestId('import-status').filter({ hasText: '1 error' }).waitFor();
    expect(await page.locator('[data-testid="import-row"][data-file="unclosed.prompt"]').getByTestId('import-error').textContent()).toContain('template does not parse');
    expect(await page.getByTestId('import-apply').isDisabled()).toBe(true);
    await expectNoAxeViolations(page, 'import dialog (errors)');

    await page.getByTestId('import-skip-errors').check();
    await page.getByTestId('import-status').filter({ hasText: 'Plan: 2 new' }).waitFor();
    await page.getByTestId('import-apply').click();
    await page.getByTestId('import-status').filter({ hasText: 'Imported: 2 new' }).waitFor();
    const stored = await rest<{ items: { name: string; activeVersion: number | null }[] }>(server.url, 'GET', '/prompts');
    expect(stored.items.map((p) => [p.name, p.activeVersion]).sort()).toEqual([['basic', 1], ['chat', 1]]);
    await page.getByTestId('import-close').click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('a', { hasText: 'chat' }).first().waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: 10_000 }).toBe('import-open');

    // The same files again: all unchanged, nothing to apply.
    await page.getByTestId('import-open').click();
    await page.getByTestId('import-files').setInputFiles(prompty.map((f) => ({ name: f.path, mimeType: 'text/plain', buffer: Buffer.from(f.text) })));
    await page.getByTestId('import-status').filter({ hasText: '2 unchanged' }).waitFor();
    expect(await page.getByTestId('import-apply').isDisabled()).toBe(true);

    // A picked .zip of a folder is sent whole (as `zip`) and replaces the files.
    const langfuse = fixtureFiles('langfuse');
    const zip = zipSync(Object.fromEntries(langfuse.map((f) => [`export/${f.path}`, strToU8(f.text)])));
    await page.getByTestId('import-files').setInputFiles([{ name: 'langfuse.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) }]);
    await page.getByTestId('import-count').filter({ hasText: 'langfuse.zip' }).waitFor();
    await page.getByTestId('import-status').filter({ hasText: 'Plan: 3 new' }).waitFor();
    await page.getByTestId('import-apply').click();
    await page.getByTestId('import-status').filter({ hasText: 'Imported: 3 new' }).waitFor();
    const after = await rest<{ items: { name: string }[] }>(server.url, 'GET', '/prompts');
    expect(after.items.map((p) => p.name)).toContain('summarize');
    expect(errors).toEqual([]);
  });
});
