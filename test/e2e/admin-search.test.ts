// Finding prompts among many: search over descriptions and template text, the total
// count, sort, status and label filters, and real pages (keyboard too); axe-core 0.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, shot, signIn, until } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

const names = (page: Page) => page.getByTestId('prompt-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
const total = async (page: Page) => Number((await page.getByTestId('prompt-total').textContent())!.replace(/\D/g, ''));

describe.skipIf(skipE2E)('admin UI: finding prompts', () => {
  const { setup } = useE2E();

  it('search text and descriptions, total, sort, status and label filters, pages', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    const msg = (text: string) => [{ role: 'user', content: { type: 'text', text } }];
    for (let i = 0; i < 120; i++) {
      const n = String(i).padStart(3, '0');
      await rest(base, 'POST', '/prompts', {
        name: `p-${n}`,
        description: i % 40 === 7 ? 'Contains the needle word' : `Prompt number ${n}`,
        arguments: [],
        messages: msg(i === 99 ? 'Somewhere in the haystack-xyz text' : 'Plain text'),
        activate: i % 3 !== 0,
      });
    }
    await rest(base, 'POST', '/prompts/p-001/versions', { arguments: [], messages: msg('a newer draft') }); // pending
    await rest(base, 'PUT', '/prompts/p-002/labels/staging', { version: 1 });

    await signIn(page, base);
    await page.locator('[data-testid="prompt-row"][data-name="p-000"]').waitFor();
    expect(await total(page)).toBe(120);
    expect(await page.getByTestId('page-status').textContent()).toContain('Page 1 of 3');
    expect(await page.getByTestId('prompt-row').count()).toBe(50);
    await expectNoAxeViolations(page, 'prompt list with pages');

    // Pages: next, next, previous; the last page has the rest.
    await page.getByTestId('page-next').click();
    await until(async () => (await names(page))[0] === 'p-050', 'page 2');
    await page.getByTestId('page-next').click();
    await until(async () => (await names(page))[0] === 'p-100', 'page 3');
    expect(await page.getByTestId('prompt-row').count()).toBe(20);
    expect(await page.getByTestId('page-next').isDisabled()).toBe(true);
    await page.getByTestId('page-prev').click();
    await until(async () => (await names(page))[0] === 'p-050', 'back to page 2');
    await page.getByTestId('page-prev').click();
    await until(async () => (await names(page))[0] === 'p-000', 'back to page 1');
    // Keyboard: Enter on the focused Next button; focus stays on it.
    await page.getByTestId('page-next').focus();
    await page.keyboard.press('Enter');
    await until(async () => (await names(page))[0] === 'p-050', 'page 2 by keyboard');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: 10_000 }).toBe('page-next');

    // Search reaches descriptions and message text.
    await page.getByTestId('prompt-search').fill('needle');
    await until(async () => (await names(page)).join() === 'p-007,p-047,p-087', 'needle in descriptions');
    expect(await total(page)).toBe(3);
    await page.getByTestId('prompt-search').fill('HAYSTACK-xyz');
    await until(async () => (await names(page)).join() === 'p-099', 'text search');
    await expectNoAxeViolations(page, 'search results');
    await page.getByTestId('prompt-search').fill('');

    // Sort by recently edited: the staging label move, then the new version.
    await page.getByTestId('prompt-sort').selectOption('updated');
    await until(async () => (await names(page)).slice(0, 2).join() === 'p-002,p-001', 'recently edited first');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('updated');

    // Status filters.
    await page.getByTestId('prompt-status-filter').selectOption('pending');
    await until(async () => (await names(page)).join() === 'p-001', 'pending');
    await page.getByTestId('prompt-status-filter').selectOption('inactive');
    await until(async () => (await total(page)) === 40, 'inactive: every third');
    await page.getByTestId('prompt-status-filter').selectOption('');
    // Label filter.
    await page.getByTestId('prompt-label-filter').selectOption('staging');
    await until(async () => (await names(page)).join() === 'p-002', 'label staging');
    await shot(page, 'prompt-search', true);
    // Filters survive a reload through the URL.
    await page.reload();
    await until(async () => (await names(page)).join() === 'p-002', 'after reload');
    expect(await page.getByTestId('prompt-sort').inputValue()).toBe('updated');
    expect(errors).toEqual([]);
  });
});
