// Issue #17 (contracts) in the admin UI against a real server, checks side: the test-case
// panel in the editor, the checks run next to the preview after saving (rendered output on
// demand, also in the editor's saved-version preview), Includes / Used by links, a refused
// production move (label dialog, Activate) forced by an admin, promote impact.
// axe-core: 0 violations on every view, light and dark.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { confirm, rest, shot, signIn, waitForText } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

const focusedTestId = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);

describe.skipIf(skipE2E)('admin UI: contracts (test cases, checks, forced moves)', () => {
  const { setup } = useE2E();

  it('test cases in the editor; checks after saving; Includes / Used by links; a refused production move forced by an admin; promote impact', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', {
      name: 'base',
      arguments: [{ name: 'who' }],
      messages: [{ role: 'user', content: { type: 'text', text: 'Base {{who}}' } }],
      activate: true,
    });
    await rest(base, 'POST', '/prompts', {
      name: 'wrap',
      messages: [{ role: 'user', content: { type: 'include', prompt: 'base', arguments: { who: 'Wrap' } } }],
      activate: true,
    });

    await signIn(page, base);
    // Links both ways: wrap includes base, base is used by wrap.
    await page.goto(`${base}/admin/prompts/wrap`);
    await page.locator('[data-testid="include-link"][data-prompt="base"]').waitFor();
    await expectNoAxeViolations(page, 'prompt page with Includes');
    await page.locator('[data-testid="include-link"][data-prompt="base"] a').click();
    await page.waitForURL(/\/admin\/prompts\/base\?version=1$/);
    await page.locator('[data-testid="dependent-link"][data-prompt="wrap"]').waitFor();
    await page.getByTestId('includes-none').waitFor();

    // The test-case panel: add a case (focus goes to its name), its argument and two checks.
    await page.goto(`${base}/admin/prompts/base/edit`);
    await page.getByTestId('test-none').waitFor();
    await page.getByTestId('test-add').click();
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('test-name-0');
    await page.getByTestId('test-name-0').fill('mentions who');
    await page.getByTestId('test-arg-0-who').fill('Ann');
    await page.getByTestId('expect-value-0-0').fill('Ann');
    await page.getByTestId('expect-add-0').click();
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('expect-value-0-1');
    await page.getByTestId('expect-kind-0-1').selectOption('maxChars');
    await page.getByTestId('expect-value-0-1').fill('x');
    await waitForText(page.locator('[data-warning-for="tests[0].expect[1].maxChars"]'), 'whole number');
    await page.getByTestId('expect-value-0-1').fill('5');
    await page.getByTestId('test-add').click();
    await page.getByTestId('test-remove-1').click();
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('test-remove-0');
    await expectNoAxeViolations(page, 'editor with a test case');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page, 'editor with a test case (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('editor-save').click();

    // After saving, the checks run next to the preview: the maxChars check fails, the output shows on demand.
    await page.waitForURL(/\/admin\/prompts\/base\?version=2$/);
    const checks = page.locator('[data-testid="check-results"][data-version="2"]');
    await checks.and(page.locator('[data-state="failed"]')).waitFor();
    const kase = checks.locator('[data-testid="check-case"][data-name="mentions who"]');
    expect(await kase.getAttribute('data-passed')).toBe('false');
    await waitForText(kase.getByTestId('check-failure'), 'at most 5 characters');
    expect(await kase.getByTestId('check-failure').count()).toBe(1);
    expect(await kase.getByTestId('check-output').isVisible()).toBe(false);
    await kase.getByTestId('check-output-toggle').click();
    await waitForText(kase.getByTestId('check-output'), 'Base Ann');
    // The version view lists the test case; the diff against v1 shows it added.
    await waitForText(page.locator('[data-testid="version-test"][data-name="mentions who"]'), 'maxChars 5');
    await waitForText(page.locator('[data-testid="diff-row"][data-kind="add"]'), 'mentions who');
    await expectNoAxeViolations(page, 'prompt page with failing checks');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page, 'prompt page with failing checks (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, 'contracts-checks', true);
    const v2 = await rest<{ tests: unknown[] }>(base, 'GET', '/prompts/base/versions/2');
    expect(v2.tests).toEqual([{ name: 'mentions who', arguments: { who: 'Ann' }, expect: [{ contains: 'Ann' }, { maxChars: 5 }] }]);

    // The editor starts from v2 with its test case.
    await page.goto(`${base}/admin/prompts/base/edit`);
    await expect.poll(() => page.getByTestId('test-name-0').inputValue(), { timeout: 10_000 }).toBe('mentions who');
    // Its "Saved v2 (server)" preview shows the same checks.
    await page.getByTestId('preview-mode-server').check();
    await page.locator('[data-testid="editor-preview"] [data-testid="check-results"][data-version="2"][data-state="failed"]').waitFor();
    await expectNoAxeViolations(page, 'editor with the saved version\'s checks');
    await page.goto(`${base}/admin/prompts/base`);

    // Moving production onto v2 is refused (409) with the failures; the admin moves it anyway after confirming.
    await page.locator('[data-testid="version-row"][data-version="2"]').getByTestId('version-labels').click();
    const dialog = page.getByTestId('label-dialog');
    await dialog.getByTestId('label-set').and(page.locator(':not([disabled])')).waitFor();
    await dialog.getByTestId('label-input').fill('production');
    await page.keyboard.press('Enter');
    const refusal = dialog.getByTestId('check-refusal');
    await waitForText(refusal.getByTestId('refusal-failure'), 'mentions who');
    await expectNoAxeViolations(page, 'label dialog with a refused move');
    expect((await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version).toBe(1);
    await refusal.getByTestId('force-move').click();
    await dialog.getByTestId('force-warning').waitFor();
    await refusal.getByTestId('force-move').click();
    await waitForText(dialog.getByTestId('label-status'), 'Forced');
    // The move changes wrap too (it includes base): the dialog says so.
    await waitForText(dialog.getByTestId('label-status'), 'Impact:');
    expect(await dialog.getByTestId('label-status').textContent()).toContain('1 production prompt');
    await expect.poll(async () => (await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version, { timeout: 10_000 }).toBe(2);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Promote dry run: moving base's production changes wrap too (it includes base), and the page says so.
    await rest(base, 'PUT', '/prompts/base/labels/staging', { version: 1 });
    await page.goto(`${base}/admin/labels`);
    await page.getByTestId('promote-preview').click();
    await page.locator('[data-testid="promote-change"][data-prompt="base"]').waitFor();
    await page.locator('[data-testid="promote-impact"] [data-testid="impact-dependent"][data-prompt="wrap"]').waitFor();
    await expectNoAxeViolations(page, 'promote dry run with impact');
    // v1 has no test cases: the promotion passes its checks.
    await confirm(page, page.getByTestId('promote-confirm'));
    await page.getByTestId('promote-done').waitFor();
    expect((await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version).toBe(1);

    // Activating v2 (moves production) is refused the same way on the prompt page; forcing it serves v2.
    await page.goto(`${base}/admin/prompts/base`);
    await confirm(page, page.locator('[data-testid="version-row"][data-version="2"]').getByTestId('version-activate'));
    const pageRefusal = page.getByTestId('check-refusal');
    await waitForText(pageRefusal.getByTestId('refusal-failure'), 'mentions who');
    await expectNoAxeViolations(page, 'prompt page with a refused activation');
    await pageRefusal.getByTestId('force-move').click();
    await pageRefusal.getByTestId('force-warning').waitFor();
    await pageRefusal.getByTestId('force-move').click();
    await waitForText(page.getByTestId('flash'), 'Now serving v2 (forced');
    expect((await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version).toBe(2);
    expect(errors).toEqual([]);
  });
});
