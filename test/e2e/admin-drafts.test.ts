// Never lose work: the leave guard (links, Back, closing the tab), the local draft, save errors by the Save
// button with focus kept, and recovery when a stopped server comes back (issue 22, item 1).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, shot, signIn, startRestartableServer, waitForText } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const body = (text: string) => ({ arguments: [{ name: 'topic', required: true }], messages: [{ role: 'user', content: { type: 'text', text } }] });
const live = (page: Page, status: 'open' | 'error') => page.locator(`[data-testid="live-status"][data-status="${status}"]`).waitFor({ timeout: 20_000 });
const focusedTestId = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.tagName);
const draftKey = (name: string) => `promptd.draft:${name}`;

/** True when the element is entirely inside the viewport (not scrolled away, not under a sticky bar). */
async function inView(page: Page, testId: string): Promise<boolean> {
  return page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });
}

describe.skipIf(skipE2E)('admin UI: never lose work', () => {
  const { setup, onCleanup } = useE2E();

  it('guards leaving, keeps a local draft, reports save failures by the Save button and recovers when the server returns', async () => {
    const { page, errors } = await setup(1280, 800);
    const server = await startRestartableServer();
    onCleanup(() => server.stop());
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'draft-me', activate: true, ...body('About {{topic}}') });
    await signIn(page, base);

    // Into the editor by in-app links, so Back stays inside the app.
    await page.locator('[data-testid="prompt-row"][data-name="draft-me"]').getByRole('link', { name: 'draft-me' }).click();
    await page.getByTestId('action-new-version').click();
    await page.getByTestId('msg-text-0').fill('Changed: explain {{topic}}');

    // A nav link asks first; "Stay" keeps the editor and the edits.
    await page.getByTestId('nav-prompts').click();
    const dialog = page.getByTestId('confirm-dialog');
    await waitForText(dialog, 'Leave with unsaved changes?');
    await dialog.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/admin/prompts/draft-me/edit');
    expect(await page.getByTestId('msg-text-0').inputValue()).toBe('Changed: explain {{topic}}');

    // So does Back: the URL is put back while the author decides.
    await page.goBack();
    await waitForText(dialog, 'Leave with unsaved changes?');
    expect(new URL(page.url()).pathname).toBe('/admin/prompts/draft-me/edit');
    await dialog.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/admin/prompts/draft-me/edit');
    expect(await page.getByTestId('msg-text-0').inputValue()).toBe('Changed: explain {{topic}}');

    // The draft is autosaved in this browser.
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k) ?? '', draftKey('draft-me'))).toContain('Changed: explain');

    // The server goes away; Save fails right by the button, in view, and focus stays on Save.
    await server.stop();
    await live(page, 'error');
    await page.getByTestId('editor-save').focus();
    await page.keyboard.press('Enter');
    await waitForText(page.getByTestId('save-status'), 'server cannot be reached');
    expect(await page.getByTestId('save-bar').getByTestId('save-status').count()).toBe(1);
    expect(await inView(page, 'save-status')).toBe(true);
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('editor-save');
    expect(await page.getByTestId('editor-save').getAttribute('aria-describedby')).toBeTruthy();
    await page.getByTestId('save-retry').waitFor();
    await shot(page, 'editor-save-offline');

    // Leaving anyway (the dialog's "Leave"), then coming back while the server is still down: the draft is restored.
    await page.getByTestId('nav-prompts').click();
    await dialog.getByTestId('confirm-ok').click();
    await page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor();
    await page.goBack();
    await page.getByTestId('msg-text-0').waitFor();
    expect(await page.getByTestId('msg-text-0').inputValue()).toBe('Changed: explain {{topic}}');
    await page.getByTestId('draft-restored').waitFor();
    await waitForText(page.getByTestId('editor-load-error'), 'Could not reach the server');
    await shot(page, 'editor-draft-restored');

    // The server comes back: the editor recovers by itself (no stuck error), and the draft saves.
    await server.start();
    await live(page, 'open');
    await page.getByTestId('editor-load-error').waitFor({ state: 'detached', timeout: 15_000 });
    await waitForText(page.getByTestId('editor-base'), 'Saving creates v2');
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('flash'), 'Saved v2');
    const v2 = await rest<{ messages: { content: { text: string } }[] }>(base, 'GET', '/prompts/draft-me/versions/2');
    expect(v2.messages[0]!.content.text).toBe('Changed: explain {{topic}}');
    expect(await page.evaluate((k) => localStorage.getItem(k), draftKey('draft-me'))).toBeNull();

    // A failed save offers Retry; once the connection is back it says so, and Retry saves.
    await page.getByTestId('action-new-version').click();
    await page.getByTestId('msg-text-0').fill('Third: {{topic}}');
    await server.stop();
    await live(page, 'error');
    await page.getByTestId('editor-save').click();
    await page.getByTestId('save-retry').waitFor();
    await server.start();
    await live(page, 'open');
    await waitForText(page.getByTestId('save-status'), 'reachable again');
    await page.getByTestId('save-retry').click();
    await waitForText(page.getByTestId('flash'), 'Saved v3');

    // Closing the tab with unsaved edits asks the browser to confirm (beforeunload).
    await page.getByTestId('action-new-version').click();
    await page.getByTestId('msg-text-0').fill('Unsaved when closing');
    const kinds: string[] = [];
    page.on('dialog', (d) => {
      kinds.push(d.type());
      void d.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => kinds).toContain('beforeunload');
    expect(errors).toEqual([]);
  });

  it('a new prompt draft survives a reload and can be discarded', async () => {
    const { server, page, errors } = await setup();
    await signIn(page, server.url);
    await page.getByTestId('new-prompt').click();
    await page.getByTestId('editor-name').fill('half-done');
    await page.getByTestId('msg-text-0').fill('Draft text');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('promptd.draft:(new)') ?? '')).toContain('Draft text');
    // A reload (crash, closed tab) brings it back with a notice.
    page.once('dialog', (d) => void d.accept());
    await page.reload();
    await page.getByTestId('draft-restored').waitFor();
    expect(await page.getByTestId('editor-name').inputValue()).toBe('half-done');
    expect(await page.getByTestId('msg-text-0').inputValue()).toBe('Draft text');
    await page.getByTestId('draft-discard').click();
    expect(await page.getByTestId('editor-name').inputValue()).toBe('');
    expect(await page.evaluate(() => localStorage.getItem('promptd.draft:(new)'))).toBeNull();
    expect(errors).toEqual([]);
  });
});
