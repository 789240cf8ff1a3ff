// Editor ergonomics (issue 22, item 8): the save bar never hides the focused field, focus follows add/remove,
// warnings wait for a touch, the error summary speaks in words, rename explains itself, Ctrl/Cmd+S saves.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, shot, signIn, waitForText } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.tagName ?? null);

/** The focused element overlaps the sticky save bar (WCAG 2.4.11), or null when it is clear of it. */
const obscured = (page: Page) =>
  page.evaluate(async () => {
    // The editor corrects the browser's own focus scrolling in the next frame.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const el = document.activeElement as HTMLElement | null;
    const bar = document.querySelector('.save-bar');
    if (!el || !bar || bar.contains(el)) return null;
    const r = el.getBoundingClientRect();
    const b = bar.getBoundingClientRect();
    const overlaps = r.bottom > b.top && r.top < b.bottom && r.right > b.left && r.left < b.right;
    return overlaps ? `${el.dataset.testid ?? el.tagName} (${Math.round(r.top)}–${Math.round(r.bottom)}) under the bar (${Math.round(b.top)})` : null;
  });

describe.skipIf(skipE2E)('admin UI: editor ergonomics', () => {
  const { setup } = useE2E();

  it('focus is never under the save bar; add/remove move focus sensibly; Ctrl+S saves', async () => {
    const { server, page, errors } = await setup(1100, 560);
    const base = server.url;
    const args = Array.from({ length: 4 }, (_, i) => ({ name: `a${i}`, description: `arg ${i}`, required: false }));
    await rest(base, 'POST', '/prompts', { name: 'long-one', arguments: args, messages: args.map((a) => ({ role: 'user', content: { type: 'text', text: `Line {{${a.name}}}` } })) });
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/long-one/edit`);
    await page.getByTestId('msg-text-3').waitFor();

    // Tab through the whole form: no stop ends up hidden by the sticky save bar.
    await page.getByTestId('editor-title').focus();
    const hidden: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const o = await obscured(page);
      if (o) hidden.push(o);
      if ((await focused(page)) === 'editor-save') break;
    }
    expect(hidden).toEqual([]);
    // Focusing a field that sits under the bar scrolls it clear.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('msg-text-3').evaluate((el) => (el as HTMLElement).focus({ preventScroll: true }));
    expect(await obscured(page)).toBeNull();

    // "Add argument" moves focus into the new argument's name.
    await page.getByTestId('arg-add').click();
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('arg-name-4');
    expect(await obscured(page)).toBeNull();
    // Removing one hands focus to the row that took its place, never to <body>.
    await page.getByTestId('arg-remove-1').click();
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('arg-remove-1');
    await page.getByTestId('arg-remove-3').click(); // the last row: focus goes to the one before
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('arg-remove-2');
    // Messages too: add focuses the new template, remove keeps focus on a Remove button, moving keeps it on an arrow.
    await page.getByTestId('msg-add').click();
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('msg-text-4');
    await page.getByTestId('msg-remove-4').click();
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('msg-remove-3');
    await page.getByTestId('msg-up-1').click();
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('msg-down-0'); // at the top the up arrow is disabled
    await page.getByTestId('msg-text-0').fill('Now {{a0}}');

    // Ctrl+S saves from anywhere in the form.
    await page.getByTestId('editor-note').fill('keyboard save');
    await page.keyboard.press('Control+s');
    await waitForText(page.getByTestId('flash'), 'Saved v2');
    expect((await rest<{ note: string }>(base, 'GET', '/prompts/long-one/versions/2')).note).toBe('keyboard save');
    expect(errors).toEqual([]);
  });

  it('warnings wait for a touch; the server’s errors are listed in words; rename explains a bad name', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await signIn(page, base);
    await page.getByTestId('new-prompt').click();
    // Nothing typed yet: no "A name is required." and no warning on the empty new argument.
    await page.getByTestId('editor-name').waitFor();
    expect(await page.locator('[data-warning-for="name"]').count()).toBe(0);
    await page.getByTestId('arg-add').click();
    expect(await page.locator('[data-warning-for="arguments[0].name"]').count()).toBe(0);
    // Typing is a touch: clearing the field again now says what is missing.
    await page.getByTestId('arg-name-0').fill('x');
    await page.getByTestId('arg-name-0').fill('');
    await page.locator('[data-warning-for="arguments[0].name"]').waitFor();
    await page.getByTestId('editor-name').fill('a');
    await page.getByTestId('editor-name').fill('');
    await waitForText(page.locator('[data-warning-for="name"]'), 'A name is required.');

    // The server refuses: the summary names fields as people do, and each entry jumps to its field.
    await page.getByTestId('editor-name').fill('summary-words');
    await page.getByTestId('arg-remove-0').click();
    await page.getByTestId('msg-text-0').fill('Hello {{who}}');
    await page.getByTestId('editor-save').click();
    const summary = page.getByTestId('error-summary');
    await waitForText(summary, 'Message 1 template');
    expect(await summary.textContent()).not.toContain('messages[0]');
    await waitForText(page.getByTestId('save-status'), 'Not saved');
    await page.getByTestId('editor-title').focus();
    await summary.getByRole('button', { name: 'Message 1 template' }).click();
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('msg-text-0');
    await shot(page, 'editor-error-summary');

    // Rename: a bad name is explained by the field itself (no browser bubble), and focus stays in it.
    await rest(base, 'POST', '/prompts', { name: 'to-rename', messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }] });
    await page.getByTestId('nav-prompts').click();
    const leave = page.getByTestId('confirm-dialog');
    await leave.getByTestId('confirm-ok').click();
    await page.goto(`${base}/admin/prompts/to-rename`);
    await page.getByTestId('action-rename').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.getByTestId('confirm-input').fill('bad name!');
    await dialog.getByTestId('confirm-ok').click();
    await waitForText(dialog.getByTestId('confirm-input-error'), 'remove the space, "!"');
    expect(await dialog.getByTestId('confirm-input').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => focused(page), { timeout: 10_000 }).toBe('confirm-input');
    expect(await dialog.getByTestId('confirm-input').evaluate((el) => (el as HTMLInputElement).validationMessage)).toBe('');
    await shot(page, 'rename-validation');
    await dialog.getByTestId('confirm-input').fill('good-name');
    await dialog.getByTestId('confirm-ok').click();
    await waitForText(page.getByTestId('prompt-heading'), 'good-name');
    expect(errors).toEqual([]);
  });
});
