// Release labels in the admin UI against a real server: chips on versions, set / move /
// remove from the version list (a stale If-Match is a 412 the dialog says and reloads),
// the label moves on the prompt page, the prompt list's label filter, and promoting
// staging → production with the dry-run list and a confirmation, after which a real MCP
// client on /mcp?label=production gets the promoted version. axe-core: 0 violations.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { rest, shot, signIn, until, waitForText } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

const text = (t: string) => ({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text: t } }] });
const chipsOf = (page: Page, v: number) =>
  page.locator(`[data-testid="version-row"][data-version="${v}"] [data-testid="label-chip"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-label')));

async function openLabels(page: Page, v: number) {
  await page.locator(`[data-testid="version-row"][data-version="${v}"]`).getByTestId('version-labels').click();
  const dialog = page.getByTestId('label-dialog');
  await dialog.waitFor();
  await dialog.getByTestId('label-set').and(page.locator(':not([disabled])')).waitFor();
  return dialog;
}

describe.skipIf(skipE2E)('admin UI: release labels', () => {
  const { setup, onCleanup } = useE2E();

  it('chips; set, move and remove a label; 412; history; filter; promote staging → production seen by MCP', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    for (const name of ['greet', 'other']) {
      await rest(base, 'POST', '/prompts', { name, ...text(`${name} one`), activate: true });
      await rest(base, 'POST', `/prompts/${name}/versions`, text(`${name} two`));
    }
    await rest(base, 'POST', '/prompts', { name: 'plain', ...text('plain'), activate: true });
    await rest(base, 'PUT', '/prompts/other/labels/staging', { version: 2 });

    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/greet`);
    await page.locator('[data-testid="version-row"][data-version="2"]').waitFor();
    expect(await chipsOf(page, 1)).toEqual(['production']);
    expect(await chipsOf(page, 2)).toEqual([]);

    // Set staging on v2 from the version list; the dialog is keyboard-first and axe-clean.
    const labelsBtn = page.locator('[data-testid="version-row"][data-version="2"]').getByTestId('version-labels');
    let dialog = await openLabels(page, 2);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: 10_000 }).toBe('label-input');
    await expectNoAxeViolations(page, 'label dialog');
    // A bad name is refused next to the field, before any request.
    await page.keyboard.type('Bad Name');
    await page.keyboard.press('Enter');
    await waitForText(dialog.locator('[data-error-for="label"]'), 'lowercase');
    expect(await dialog.getByTestId('label-input').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByTestId('label-input').fill('staging');
    await page.keyboard.press('Enter');
    await waitForText(dialog.getByTestId('label-status'), 'Set staging on v2.');
    await dialog.locator('[data-testid="dialog-chip"][data-label="staging"]').waitFor();
    await expectNoAxeViolations(page, 'label dialog after a change');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => labelsBtn.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true);
    await until(async () => (await chipsOf(page, 2)).includes('staging'), 'the staging chip on v2');

    // Move staging to v1 (the dialog says it moves), then back to v2.
    dialog = await openLabels(page, 1);
    await dialog.getByTestId('label-input').fill('staging');
    await waitForText(dialog.getByTestId('label-hint'), 'staging is on v2 now: it moves to v1.');
    await dialog.getByRole('button', { name: 'Move label' }).click();
    await waitForText(dialog.getByTestId('label-status'), 'Moved staging from v2 to v1.');
    await dialog.getByTestId('label-close').click();
    await until(async () => (await chipsOf(page, 1)).includes('staging') && !(await chipsOf(page, 2)).includes('staging'), 'staging moved to v1');

    // Set canary on v1 and remove it again from the list in the dialog.
    dialog = await openLabels(page, 1);
    await dialog.getByTestId('label-input').fill('canary');
    await dialog.getByTestId('label-set').click();
    await dialog.getByTestId('label-remove-canary').click();
    await waitForText(dialog.getByTestId('label-status'), 'Removed canary from v1.');
    expect(await dialog.getByTestId('label-remove-canary').count()).toBe(0);
    await dialog.getByTestId('label-close').click();

    // Someone else changes the prompt while the dialog is open: 412, said, labels reloaded, retry works.
    dialog = await openLabels(page, 2);
    await rest(base, 'PUT', '/prompts/greet/labels/beta', { version: 1 });
    await dialog.getByTestId('label-input').fill('staging');
    await dialog.getByTestId('label-set').click();
    await waitForText(dialog.getByTestId('label-conflict'), 'Someone else changed this prompt');
    expect(await chipsOf(page, 2)).toEqual([]);
    await expectNoAxeViolations(page, 'label dialog with a conflict');
    await dialog.getByTestId('label-set').click();
    await waitForText(dialog.getByTestId('label-status'), 'Moved staging from v1 to v2.');
    await dialog.getByTestId('label-close').click();
    await until(async () => (await chipsOf(page, 2)).includes('staging'), 'staging back on v2');

    // The label moves, newest first, with who made them.
    const moves = page.getByTestId('label-move');
    await waitForText(moves.first(), 'staging moved v1 → v2');
    const all = await moves.allTextContents();
    expect(all.some((t) => t.includes('canary removed (was v1)'))).toBe(true);
    expect(all.some((t) => t.includes('beta set on v1'))).toBe(true);
    expect(all.some((t) => t.includes('staging set on v2') && t.includes('admin'))).toBe(true);

    // The prompt list filters by label, kept in the URL.
    await page.getByTestId('nav-prompts').click();
    await page.locator('[data-testid="prompt-row"][data-name="plain"]').waitFor();
    await page.getByTestId('prompt-label-filter').selectOption('staging');
    await until(async () => (await page.getByTestId('prompt-row').count()) === 2, 'two prompts labelled staging');
    expect(await page.getByTestId('prompt-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')))).toEqual(['greet', 'other']);
    expect(new URL(page.url()).searchParams.get('label')).toBe('staging');
    await expectNoAxeViolations(page, 'prompt list filtered by label');

    // Promote staging → production: the dry run lists the changes, nothing moves until confirmed.
    await page.getByTestId('nav-labels').click();
    await page.getByRole('heading', { name: 'Labels', level: 1 }).waitFor();
    await page.locator('[data-testid="labels-table"] tr[data-label="staging"]').waitFor();
    await expectNoAxeViolations(page, 'labels page');
    await page.getByTestId('promote-from').fill('staging');
    await page.getByTestId('promote-to').fill('production');
    await page.getByTestId('promote-preview').click();
    const changes = page.getByTestId('promote-changes').getByTestId('promote-change');
    await changes.first().waitFor();
    expect(await changes.allTextContents()).toEqual(['greet: production v1 → v2', 'other: production v1 → v2']);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: 10_000 }).toBe('promote-plan');
    expect((await rest<{ activeVersion: number }>(base, 'GET', '/prompts/greet')).activeVersion).toBe(1);
    await expectNoAxeViolations(page, 'labels page with a dry run');
    await shot(page, 'labels-dry-run', true);

    // Cancel first: still nothing moves.
    await page.getByTestId('promote-confirm').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await expectNoAxeViolations(page, 'promote confirmation');
    await page.keyboard.press('Escape');
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    expect((await rest<{ activeVersion: number }>(base, 'GET', '/prompts/greet')).activeVersion).toBe(1);

    const mcp = new Client({ name: 'e2e-labels', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?label=production`)));
    onCleanup(() => mcp.close());
    const served = async (name: string) => {
      const r = await mcp.getPrompt({ name });
      const c = r.messages[0]!.content;
      return c.type === 'text' ? c.text : '';
    };
    expect(await served('greet')).toBe('greet one');

    await page.getByTestId('promote-confirm').click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm-ok').click();
    await page.getByTestId('promote-done').waitFor();
    expect(await page.getByTestId('promote-done-changes').getByTestId('promote-change').allTextContents()).toEqual(['greet: production v1 → v2', 'other: production v1 → v2']);
    await expectNoAxeViolations(page, 'labels page after a promotion');
    expect(await served('greet')).toBe('greet two');
    expect(await served('other')).toBe('other two');
    expect(await served('plain')).toBe('plain');

    // The promotion is in the prompt's history and on its chips.
    await page.goto(`${base}/admin/prompts/greet`);
    await waitForText(page.getByTestId('label-move').first(), 'production moved v1 → v2 (promoted from staging)');
    expect(await chipsOf(page, 2)).toEqual(['production', 'staging']);
    expect(await page.getByTestId('prompt-label-chip').evaluateAll((els) => els.map((e) => e.getAttribute('data-label')))).toEqual(['beta', 'production', 'staging']);
    await expectNoAxeViolations(page, 'prompt page with labels and moves');
    await shot(page, 'labels-prompt-page', true);
    expect(errors).toEqual([]);
  });

  it('dark mode and a 390px screen: the label dialog and the labels page fit and stay axe-clean', async () => {
    const { server, page } = await setup(390, 844);
    await page.emulateMedia({ colorScheme: 'dark' });
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'narrow-prompt-with-a-long-name', ...text('one'), activate: true });
    await rest(base, 'PUT', '/prompts/narrow-prompt-with-a-long-name/labels/staging', { version: 1 });
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/narrow-prompt-with-a-long-name`);
    const dialog = await openLabels(page, 1);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, 'label dialog (dark, 390px)');
    await page.keyboard.press('Escape');
    await page.goto(`${base}/admin/labels`);
    await page.getByTestId('promote-preview').click();
    await page.getByTestId('promote-plan').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, 'labels page (dark, 390px)');
  });
});
