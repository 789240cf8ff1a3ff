// Keyboard and screen-reader pass: activation by keyboard only, Tab order and focus rings, dialogs, contrast.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN, rest, shot, signIn, until, waitForText } from './harness.js';
import { contrastIssues, measureContrast, stopIndex, tabWalk } from './a11y.js';
import { skipE2E, useE2E } from './suite.js';

interface Focused { tag: string; testid: string | null; name: string; inDialog: boolean }
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const name = el.getAttribute('aria-label') ?? el.textContent ?? '';
    return { tag: el.tagName.toLowerCase(), testid: el.dataset.testid ?? null, name: name.trim(), inDialog: !!el.closest('dialog[open]') };
  });

/** Presses Tab (only) until `want` matches the focused element; returns what was passed on the way. */
async function tabTo(page: Page, want: (f: Focused) => boolean, max = 60): Promise<Focused[]> {
  const seen: Focused[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    seen.push(f);
    if (want(f)) return seen;
  }
  throw new Error(`never reached by Tab; passed ${JSON.stringify(seen.map((f) => f.testid ?? f.name))}`);
}

/** Moves the sequential focus starting point to the top of the document. */
const restartTabbing = (page: Page) =>
  page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '#';
    document.body.prepend(a);
    a.focus();
    a.remove();
  });

const seed = async (base: string) => {
  const msg = (text: string) => ({ arguments: [{ name: 'topic', required: true }], messages: [{ role: 'user', content: { type: 'text', text } }] });
  await rest(base, 'POST', '/prompts', { name: 'kb-prompt', title: 'Keyboard prompt', note: 'first', ...msg('Explain {{topic}}') });
  await rest(base, 'POST', '/prompts/kb-prompt/versions', { note: 'second', ...msg('Explain {{topic}} simply') });
  await rest(base, 'POST', '/prompts', { name: 'old-one', ...msg('Old {{topic}}') });
  await rest(base, 'PATCH', '/prompts/old-one', { archived: true });
  await rest(base, 'POST', '/resources', { uri: 'docs://kb', name: 'KB', mimeType: 'text/plain', text: 'hello' });
  await rest(base, 'POST', '/resources', { uri: 'files://dot.png', name: 'Dot', mimeType: 'image/png', blob: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' });
  await rest(base, 'POST', '/resource-templates', { uriTemplate: 'logs://recent{?timeframe}', name: 'Logs', mimeType: 'text/plain', text: 'Logs for {{timeframe}}' });
};

describe.skipIf(skipE2E)('admin UI: keyboard and screen readers', () => {
  const { setup } = useE2E();

  it('signs in, activates a version and rolls back using the keyboard only; the dialog traps and restores focus', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await seed(base);
    await page.goto(`${base}/admin/`);
    expect((await focused(page)).testid).toBe('signin-token');
    await page.keyboard.type(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="prompt-row"][data-name="kb-prompt"]').waitFor();

    // List → prompt: the search and filter come before the rows.
    const toRow = await tabTo(page, (f) => f.tag === 'a' && f.name === 'kb-prompt');
    expect(toRow.map((f) => f.testid)).toEqual(expect.arrayContaining(['nav-prompts', 'sign-out', 'new-prompt', 'prompt-search', 'prompt-archived-filter']));
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="version-row"][data-version="2"]').waitFor();

    // Prompt page: the actions come before the version list; "Activate v2" has its own name.
    const toActivate = await tabTo(page, (f) => f.testid === 'version-activate' && f.name === 'Activate v2');
    const ids = toActivate.map((f) => f.testid);
    expect(ids.indexOf('action-new-version')).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf('action-new-version')).toBeLessThan(ids.indexOf('action-delete'));
    expect(ids).not.toContain('diff-from');

    // Enter opens the confirmation with focus on its default button; Tab and Shift+Tab stay inside.
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await page.evaluate(() => document.getElementById(document.querySelector('dialog[open]')!.getAttribute('aria-labelledby')!)?.textContent)).toBe('Activate v2?');
    await expect.poll(() => focused(page), { timeout: 10_000 }).toMatchObject({ testid: 'confirm-ok', inDialog: true });
    const cycle: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      expect(f.inDialog).toBe(true);
      cycle.push(f.testid);
    }
    expect(cycle).toEqual(['confirm-cancel', 'confirm-ok', 'confirm-cancel', 'confirm-ok']);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focused(page), { timeout: 10_000 }).toMatchObject({ testid: 'confirm-cancel', inDialog: true });
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focused(page), { timeout: 10_000 }).toMatchObject({ testid: 'confirm-ok', inDialog: true });

    // Escape cancels and returns focus to the button that opened it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page), { timeout: 10_000 }).toMatchObject({ testid: 'version-activate', name: 'Activate v2' });
    expect((await rest<{ activeVersion: number | null }>(base, 'GET', '/prompts/kb-prompt')).activeVersion).toBeNull();

    // Space opens it again, Enter confirms; focus lands on the (now active) version, the result is announced.
    await page.keyboard.press('Space');
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await waitForText(page.getByTestId('prompt-status'), 'serving v2');
    await waitForText(page.getByTestId('flash-region'), 'Now serving v2.');
    expect(await page.getByTestId('flash-region').getAttribute('aria-live')).toBe('polite');
    await until(async () => (await focused(page)).tag === 'h3', 'focus on the v2 heading', 5000);
    await expect.poll(() => focused(page), { timeout: 10_000 }).toMatchObject({ tag: 'h3', name: 'v2 (active)' });
    expect((await rest<{ activeVersion: number | null }>(base, 'GET', '/prompts/kb-prompt')).activeVersion).toBe(2);

    // From there, a few Tabs reach "Roll back to v1".
    const toRollback = await tabTo(page, (f) => f.name === 'Roll back to v1', 6);
    expect(toRollback.map((f) => f.name)).toEqual(['Compare v2', 'Preview v2', 'Labels of v2', 'Roll back to v1']);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await waitForText(page.getByTestId('prompt-status'), 'serving v1');
    await until(async () => (await focused(page)).name === 'v1 (active)', 'focus on the v1 heading', 5000);
    expect((await rest<{ activeVersion: number | null }>(base, 'GET', '/prompts/kb-prompt')).activeVersion).toBe(1);
    expect(errors).toEqual([]);
  });

  it('every interactive element is reachable with Tab, in reading order, with a visible focus ring not hidden under sticky bars', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await seed(base);
    await rest(base, 'PUT', '/prompts/kb-prompt/active', { version: 1 });
    await signIn(page, base);

    const check = async (label: string, order: string[]) => {
      await restartTabbing(page);
      const r = await tabWalk(page);
      expect({ label, missed: r.missed, positiveTabindex: r.positiveTabindex }).toEqual({ label, missed: [], positiveTabindex: [] });
      expect({ label, noRing: r.stops.filter((s) => !s.ring).map((s) => s.desc) }).toEqual({ label, noRing: [] });
      expect({ label, obscured: r.stops.filter((s) => s.obscuredBy).map((s) => `${s.desc} under ${s.obscuredBy}`) }).toEqual({ label, obscured: [] });
      const at = order.map((o) => stopIndex(r, o));
      expect({ label, order, at: at.map((i) => i >= 0) }).toEqual({ label, order, at: order.map(() => true) });
      expect({ label, at }).toEqual({ label, at: [...at].sort((a, b) => a - b) });
    };

    await page.locator('[data-testid="prompt-row"][data-name="kb-prompt"]').waitFor();
    await check('list', ['Skip to content', 'nav-prompts', 'sign-out', 'new-prompt', 'prompt-search', 'prompt-archived-filter', '"kb-prompt"']);

    await page.goto(`${base}/admin/prompts/kb-prompt`);
    await page.locator('[data-testid="version-row"][data-version="2"]').waitFor();
    await page.getByTestId('diff-summary').waitFor();
    // Names a screen reader announces for the version list and the diff selectors.
    expect(await page.getByRole('list', { name: 'Version history, newest first' }).getByRole('listitem').count()).toBe(2);
    expect(await page.getByRole('heading', { name: 'v1 (active)', level: 3 }).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Versions to compare' }).getByRole('combobox', { name: 'From version (left)' }).inputValue()).toBe('1');
    expect(await page.getByRole('combobox', { name: 'To version (right)' }).inputValue()).toBe('2');
    expect(await page.getByRole('button', { name: 'Swap left and right versions' }).count()).toBe(1);
    await check('prompt page', ['nav-connect', 'a "Prompts"', 'action-new-version', 'action-delete', 'version-activate', '"Compare v1"', 'preview-arg-topic', 'diff-from', 'diff-to', 'diff-swap']); // the version's content and preview come before the diff

    await page.goto(`${base}/admin/prompts/kb-prompt/edit`);
    await page.getByTestId('msg-text-0').waitFor();
    await page.getByTestId('icon-add').click();
    await page.getByTestId('msg-annotations-0').locator('summary').click();
    await check('editor', ['editor-title', 'icon-src-0', 'icon-add', 'arg-name-0', 'arg-add', 'msg-role-0', 'msg-text-0', 'msg-audience-user-0', 'msg-priority-0', 'msg-add', 'editor-note', 'editor-activate', 'editor-save', 'preview-mode-draft', 'preview-arg-topic']);

    await page.goto(`${base}/admin/resources`);
    await page.getByRole('button', { name: 'Open docs://kb' }).click();
    await page.getByTestId('resource-edit').click();
    await page.getByTestId('template-edit').click();
    await check('resources', ['resource-search', '"Close docs://kb"', 'res-edit-uri', 'res-edit-text', 'res-edit-save', '"Open files://dot.png"', 'res-uri', 'res-create', 'res-file', 'tpl-edit-uri', 'tpl-edit-save', 'tpl-uri', 'tpl-create']);

    await page.goto(`${base}/admin/connect`);
    await check('connect', ['nav-connect', 'mcp-url', 'mcp-url-copy', 'stdio-config', 'stdio-config-copy']);
    expect(errors).toEqual([]);
  });

  it('text, badges and placeholders meet WCAG AA contrast', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await seed(base);
    await rest(base, 'PUT', '/prompts/kb-prompt/active', { version: 1 });
    await signIn(page, base);
    const pages: [string, () => Promise<void>][] = [
      ['list', async () => {
        await page.getByTestId('prompt-archived-filter').selectOption('all');
        await page.locator('[data-testid="prompt-row"][data-name="old-one"]').waitFor();
      }],
      ['prompt page', async () => {
        await page.goto(`${base}/admin/prompts/kb-prompt`);
        await page.getByTestId('diff-summary').waitFor();
      }],
      ['editor', async () => {
        await page.goto(`${base}/admin/prompts/kb-prompt/edit`);
        await page.getByTestId('msg-text-0').fill('Explain {{topic}} to {{audience}}');
        await page.getByTestId('icon-add').click();
        await page.locator('[data-warning-for="messages[0].content.text"]').waitFor();
      }],
      ['resources', async () => {
        await page.goto(`${base}/admin/resources`);
        await page.getByRole('button', { name: 'Open docs://kb' }).click();
        await page.getByTestId('resource-used-by').waitFor();
      }],
    ];
    const badges: Record<string, number> = {};
    for (const [label, open] of pages) {
      await open();
      expect({ label, issues: await contrastIssues(page) }).toEqual({ label, issues: [] });
      for (const kind of ['active', 'muted', 'warn', 'info']) {
        for (const m of await measureContrast(page, `.badge-${kind}`)) badges[kind] = Math.min(badges[kind] ?? 99, m.ratio);
      }
    }
    // All four badge kinds were on screen somewhere, each at least 4.5:1.
    expect(Object.keys(badges).sort()).toEqual(['active', 'info', 'muted', 'warn']);
    for (const r of Object.values(badges)) expect(r).toBeGreaterThanOrEqual(4.5);
    await shot(page, '12-resources-detail');
    expect(errors).toEqual([]);
  });
});
