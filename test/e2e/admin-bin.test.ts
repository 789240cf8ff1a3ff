// The bin in the admin UI against a real server: the delete dialog says the prompt goes to
// the bin and for how long, the Deleted prompts page lists it with who and when, Restore
// (after a confirmation) brings it back served. axe-core: 0 violations on each state.
import { describe, expect, it } from 'vitest';
import { rest, signIn, until, waitForText } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI: deleted prompts (bin)', () => {
  const { setup } = useE2E();

  it('delete → bin (who, when, retention) → restore with a confirmation', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'doomed', title: 'Doomed', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'bye' } }], activate: true });
    await signIn(page, base);

    await page.getByTestId('open-bin').click();
    await page.getByRole('heading', { name: 'Deleted prompts', level: 1 }).waitFor();
    await page.getByTestId('bin-empty').waitFor();
    await waitForText(page.getByTestId('bin-retention'), 'for 30 days');
    await expectNoAxeViolations(page, 'bin (empty)');

    await page.goto(`${base}/admin/prompts/doomed`);
    await page.getByTestId('action-delete').click();
    const dialog = page.getByTestId('confirm-dialog');
    await waitForText(dialog.getByTestId('delete-bin-note'), 'go to the bin');
    expect(await dialog.getByTestId('delete-bin-note').textContent()).toContain('restore it from there for 30 days');
    await expectNoAxeViolations(page, 'delete dialog');
    await dialog.getByTestId('confirm-ok').click();
    await page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor();
    expect((await rest<{ items: unknown[] }>(base, 'GET', '/prompts')).items).toHaveLength(0);

    await page.getByTestId('open-bin').click();
    const row = page.locator('[data-testid="bin-row"][data-name="doomed"]');
    await row.waitFor();
    expect(await row.getByTestId('bin-deleted-by').textContent()).toBe('admin');
    expect(await row.getByTestId('bin-deleted-at').textContent()).toBe('just now');
    await expectNoAxeViolations(page, 'bin with a deleted prompt');

    // Cancel keeps it in the bin and returns focus to the Restore button.
    const restore = row.getByTestId('bin-restore');
    await restore.click();
    await waitForText(dialog, 'Restore doomed?');
    await waitForText(dialog, 'v1 is served to MCP clients again');
    await expectNoAxeViolations(page, 'restore dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => restore.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true);
    expect((await rest<{ items: unknown[] }>(base, 'GET', '/prompts?deleted=true')).items).toHaveLength(1);

    await restore.click();
    await dialog.getByTestId('confirm-ok').click();
    await page.getByTestId('prompt-heading').filter({ hasText: 'doomed' }).waitFor();
    await until(async () => (await rest<{ activeVersion: number | null }>(base, 'GET', '/prompts/doomed')).activeVersion === 1, 'doomed restored and served');
    await page.goto(`${base}/admin/bin`);
    await page.getByTestId('bin-empty').waitFor();
    expect(errors).toEqual([]);
  });

  it('a 390px screen in dark mode: the bin fits and stays axe-clean', async () => {
    const { server, page } = await setup(390, 844);
    await page.emulateMedia({ colorScheme: 'dark' });
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'gone-with-a-rather-long-name', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] });
    await rest(base, 'DELETE', '/prompts/gone-with-a-rather-long-name');
    await signIn(page, base);
    await page.goto(`${base}/admin/bin`);
    await page.locator('[data-testid="bin-row"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, 'bin (dark, 390px)');
  });
});
