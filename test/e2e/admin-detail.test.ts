// Reading a prompt on its page (issue 22, item 2) and status lines that never contradict themselves (item 7).
import { describe, expect, it } from 'vitest';
import { confirm, rest, shot, signIn, waitForText } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const v = (text: string, extra: Record<string, unknown> = {}) => ({
  arguments: [
    { name: 'topic', title: 'Topic', description: 'What to explain', required: true },
    { name: 'tone', required: false, choices: ['kind', 'blunt'], maxLength: 10 },
  ],
  messages: [{ role: 'user', content: { type: 'text', text } }, { role: 'assistant', content: { type: 'text', text: 'Sure.' } }],
  ...extra,
});

describe.skipIf(skipE2E)('admin UI: the prompt page', () => {
  const { setup } = useE2E();

  it('shows the selected version’s messages and arguments, shares sample values with the editor, previews the version just saved', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'readable', activate: true, note: 'first', ...v('Explain {{topic}}{{#tone}} in a {{tone}} tone{{/tone}}.') });
    await rest(base, 'POST', '/prompts/readable/versions', { note: 'second', ...v('Explain {{topic}} briefly.') });
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/readable`);

    // The served version (v1) is shown read-only: template text as written, argument definitions.
    const view = page.getByTestId('version-view');
    await page.locator('[data-testid="version-view"][data-version="1"]').waitFor();
    expect(await view.getByTestId('version-message-text').first().textContent()).toBe('Explain {{topic}}{{#tone}} in a {{tone}} tone{{/tone}}.');
    const topic = view.locator('[data-testid="version-argument"][data-name="topic"]');
    await waitForText(topic, 'What to explain');
    await waitForText(topic, 'required');
    await waitForText(view.locator('[data-testid="version-argument"][data-name="tone"]'), 'max 10 chars');
    await waitForText(view.locator('[data-testid="version-argument"][data-name="tone"]'), 'blunt');
    // Choosing another version in the history shows that one.
    await page.locator('[data-testid="version-row"][data-version="2"] [data-testid="version-preview"]').click();
    await page.locator('[data-testid="version-view"][data-version="2"]').waitFor();
    await waitForText(view.getByTestId('version-message-text'), 'Explain {{topic}} briefly.');
    await shot(page, 'detail-version-view', true);

    // A sample value typed on the page is there in the editor's preview, and one typed there comes back.
    await page.getByTestId('preview-arg-topic').fill('tides');
    await waitForText(page.getByTestId('preview-output'), 'Explain tides briefly.');
    await page.getByTestId('action-new-version').click();
    expect(await page.getByTestId('preview-arg-topic').inputValue()).toBe('tides');
    await page.getByTestId('preview-arg-topic').fill('moons');
    await page.getByTestId('msg-text-0').fill('Explain {{topic}} in three lines.');
    // Saved without activating: the page then previews v3 (the one just saved), not the served v1.
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('flash'), 'Saved v3');
    await page.locator('[data-testid="version-view"][data-version="3"]').waitFor();
    expect(await page.getByTestId('preview-arg-topic').inputValue()).toBe('moons');
    await waitForText(page.getByTestId('preview-output'), 'Explain moons in three lines.');
    await waitForText(page.getByTestId('prompt-status'), 'serving v1');
    expect(errors).toEqual([]);
  });

  it('an archived prompt is not "serving"; the editor header follows a save made elsewhere', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'status-check', activate: true, ...v('About {{topic}}') });
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/status-check`);
    await waitForText(page.getByTestId('prompt-status'), 'serving v1');
    await confirm(page, page.getByTestId('action-archive'));
    await waitForText(page.getByTestId('prompt-status'), 'archived');
    const status = (await page.getByTestId('prompt-status').textContent()) ?? '';
    expect(status).not.toContain('serving');
    expect(status).toContain('not served');
    expect(await page.getByTestId('version-view-heading').textContent()).not.toContain('served)');
    // The list agrees.
    await page.getByTestId('nav-prompts').click();
    await page.getByTestId('prompt-archived-filter').selectOption('all');
    const row = page.locator('[data-testid="prompt-row"][data-name="status-check"]');
    await waitForText(row.getByTestId('row-active'), 'not served');
    await row.getByRole('link', { name: 'status-check' }).click();
    await page.getByTestId('action-archive').click(); // unarchive: no confirmation
    await waitForText(page.getByTestId('prompt-status'), 'serving v1');

    // Another tab saves v2 while this editor is open: the header no longer promises "Saving creates v2".
    await page.getByTestId('action-new-version').click();
    await waitForText(page.getByTestId('editor-base'), 'Saving creates v2');
    await page.getByTestId('msg-text-0').fill('Mine: {{topic}}');
    await rest(base, 'POST', '/prompts/status-check/versions', v('Theirs: {{topic}}'));
    await page.getByTestId('editor-stale').waitFor({ timeout: 10_000 });
    const header = (await page.getByTestId('editor-base').textContent()) ?? '';
    expect(header).not.toContain('Saving creates v2');
    expect(header).toContain('v2 was saved elsewhere');
    expect(header).toContain('v3');
    expect(errors).toEqual([]);
  });
});
