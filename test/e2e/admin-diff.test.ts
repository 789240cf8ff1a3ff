// Sharper diffs (issue 22, item 6): words marked inside changed lines, the change note apart, unified on
// narrow screens, "latest vs served", and theirs-vs-mine in the 412 conflict banner.
import { describe, expect, it } from 'vitest';
import { rest, shot, signIn, waitForText } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const body = (text: string, note?: string) => ({ note, arguments: [{ name: 'topic', required: true }], messages: [{ role: 'user', content: { type: 'text', text } }] });

describe.skipIf(skipE2E)('admin UI: diffs', () => {
  const { setup } = useE2E();

  it('marks changed words, shows notes apart, compares latest with served, goes unified when narrow', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'differ', activate: true, ...body('Explain {{topic}} in simple words.', 'first cut') });
    await rest(base, 'POST', '/prompts/differ/versions', body('Explain {{topic}} in plain words.', 'wording'));
    await rest(base, 'POST', '/prompts/differ/versions', body('Explain {{topic}} in plain short words.', 'shorter'));
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/differ`);
    // Default: served v1 against latest v3.
    await waitForText(page.getByTestId('diff-summary'), 'between v1 and v3');
    const view = page.getByTestId('diff-view');
    expect(await view.getAttribute('data-mode')).toBe('split');
    const changed = view.locator('[data-testid="diff-row"][data-kind="changed"]');
    await waitForText(changed, 'plain short');
    // Only the changed words are marked, not the whole line.
    expect(await changed.locator('del[data-testid="diff-word"]').allTextContents()).toEqual(['simple']);
    expect(await changed.locator('ins[data-testid="diff-word"]').allTextContents()).toEqual(['plain short']);
    // Notes are apart from content: no "note:" line in the diff, both notes named above it.
    expect(await view.textContent()).not.toContain('note:');
    await waitForText(page.getByTestId('diff-note-from'), 'first cut');
    await waitForText(page.getByTestId('diff-note-to'), 'shorter');
    await shot(page, 'diff-words');

    // Another pair, then back to "latest vs served" in one click.
    await page.getByTestId('diff-from').selectOption('2');
    await waitForText(page.getByTestId('diff-summary'), 'between v2 and v3');
    await page.getByTestId('diff-served').click();
    await waitForText(page.getByTestId('diff-summary'), 'between v1 and v3');

    // A narrow window gets the unified view (one column), words still marked.
    await page.setViewportSize({ width: 400, height: 900 });
    await page.locator('[data-testid="diff-view"][data-mode="unified"]').waitFor();
    const u = page.getByTestId('diff-view');
    expect(await u.locator('[data-testid="diff-row"][data-kind="del"] del').allTextContents()).toEqual(['simple']);
    expect(await u.locator('[data-testid="diff-row"][data-kind="add"] ins').allTextContents()).toEqual(['plain short']);
    expect(await u.locator('thead th').count()).toBe(1);
    await page.getByTestId('diff-view').scrollIntoViewIfNeeded();
    await shot(page, 'diff-unified-narrow');
    // ...and the author can still choose side by side.
    await page.getByTestId('diff-mode-split').check();
    await page.locator('[data-testid="diff-view"][data-mode="split"]').waitFor();
    expect(errors).toEqual([]);
  });

  it('the 412 conflict banner shows theirs vs mine', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'clash', ...body('Base {{topic}}') });
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/clash/edit`);
    await page.getByTestId('msg-text-0').fill('Mine about {{topic}}');
    await rest(base, 'POST', '/prompts/clash/versions', body('Theirs about {{topic}}'));
    await page.getByTestId('editor-stale').waitFor({ timeout: 10_000 });
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('editor-message'), 'Someone else changed this prompt');
    const diff = page.getByTestId('conflict-diff-view');
    await waitForText(diff.locator('thead'), 'Theirs: v2');
    await waitForText(diff.locator('thead'), 'Mine');
    expect(await diff.locator('del[data-testid="diff-word"]').allTextContents()).toEqual(['Theirs']);
    expect(await diff.locator('ins[data-testid="diff-word"]').allTextContents()).toEqual(['Mine']);
    await shot(page, 'editor-conflict-diff', true);
    // Keeping my edits saves them on top as v3.
    await page.getByTestId('editor-keep').click();
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('flash'), 'Saved v3');
    expect(errors).toEqual([]);
  });
});
