// The admin UI in headless Chromium (Debian's package, driven by playwright-core) against a real server.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { confirm, rest, shot, signIn, until, waitForText } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe.skipIf(skipE2E)('admin UI end to end (headless Chromium)', () => {
  const { setup, onCleanup } = useE2E();

  it('main flow through the UI: resource, prompt with two arguments and a binding, preview, save, activate, MCP sees it, v2, diff, roll back', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;

    // An MCP client on the same server, listening for list_changed from the start.
    const mcp = new Client({ name: 'e2e-watcher', version: '1.0.0' });
    let listChanged = 0;
    mcp.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
      listChanged++;
    });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    onCleanup(() => mcp.close());

    // Sign-in rejects a bad token with a clear message, then accepts the right one.
    await page.goto(`${base}/admin/`);
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForText(page.getByTestId('signin-error'), 'Token rejected');
    await shot(page, '01-sign-in');
    await signIn(page, base);

    // A text resource, created in the UI.
    await page.getByTestId('nav-resources').click();
    await page.getByTestId('res-uri').fill('docs://style-guide');
    await page.getByTestId('res-name').fill('Style guide');
    await page.getByTestId('res-mime').fill('text/markdown');
    await page.getByTestId('res-text').fill('# House style\nPrefer small functions and clear names.');
    await page.getByTestId('res-create').click();
    await page.locator('[data-testid="resource-row"][data-uri="docs://style-guide"]').waitFor();
    // A binary file, read as base64 in the browser.
    await page.getByTestId('res-file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1PX, 'base64') });
    expect(await page.getByTestId('res-upload-uri').inputValue()).toBe('files://dot.png');
    await page.getByTestId('res-upload').click();
    await page.locator('[data-testid="resource-row"][data-uri="files://dot.png"]').waitFor();
    const uploaded = await rest<{ items: { uri: string; binary: boolean; size: number }[] }>(base, 'GET', '/resources');
    expect(uploaded.items.find((r) => r.uri === 'files://dot.png')).toMatchObject({ binary: true, size: Buffer.from(PNG_1PX, 'base64').length });

    // A new prompt with two arguments and a bound resource.
    await page.getByTestId('nav-prompts').click();
    await page.getByTestId('new-prompt').click();
    await page.getByTestId('editor-name').fill('code-review');
    await page.getByTestId('editor-title').fill('Review a snippet');
    await page.getByTestId('editor-description').fill('Reviews code against the house style.');
    await page.getByTestId('msg-text-0').fill('Review this code{{#tone}} in a {{tone}} tone{{/tone}}:\n{{code}}');
    // Undeclared variables are flagged before saving, and can be declared from the flag.
    await page.locator('[data-testid="template-var"][data-var="code"][data-declared="false"]').waitFor();
    await page.getByTestId('declare-code').click();
    await page.getByTestId('arg-add').click();
    await page.getByTestId('arg-name-1').fill('tone');
    await page.getByTestId('arg-choices-1').fill('kind, blunt');
    await page.getByTestId('arg-required-0').check();
    await page.getByTestId('arg-description-0').fill('The code to review');
    await page.locator('[data-testid="template-var"][data-declared="false"]').waitFor({ state: 'detached' });
    await page.getByTestId('msg-add').click();
    await page.getByTestId('msg-type-1').selectOption('resource');
    await page.getByTestId('msg-resource-pick-1').selectOption('docs://style-guide');
    await waitForText(page.getByTestId('msg-resource-status-1'), 'Style guide');
    await page.getByTestId('msg-role-1').selectOption('user');

    // The live preview renders with sample arguments.
    await page.getByTestId('preview-arg-code').fill('def f(x): return x*2');
    await page.getByTestId('preview-arg-tone').selectOption('blunt');
    await waitForText(page.getByTestId('preview-output'), 'Review this code in a blunt tone:');
    const draft = (await page.getByTestId('preview-output').textContent()) ?? '';
    expect(draft).toContain('def f(x): return x*2');
    expect(draft).toContain('docs://style-guide');
    await shot(page, '03-editor-new-prompt', true);

    await page.getByTestId('editor-note').fill('First cut');
    await page.getByTestId('editor-save').click();
    await page.getByTestId('prompt-heading').filter({ hasText: 'code-review' }).waitFor();
    await waitForText(page.getByTestId('flash'), 'Created code-review v1');
    await waitForText(page.getByTestId('prompt-status'), 'not served');
    // The server render (prompt page) embeds the bound resource.
    await page.getByTestId('preview-arg-code').fill('x = 1');
    await waitForText(page.getByTestId('preview-output'), 'Prefer small functions');
    const served = await mcp.listPrompts();
    expect(served.prompts.map((p) => p.name)).not.toContain('code-review');

    // Activate (one click + confirm); the MCP client hears list_changed and lists the prompt.
    const before = listChanged;
    await confirm(page, page.locator('[data-testid="version-row"][data-version="1"] [data-testid="version-activate"]'));
    await waitForText(page.getByTestId('prompt-status'), 'serving v1');
    await until(() => listChanged > before, 'notifications/prompts/list_changed');
    const listed = await mcp.listPrompts();
    const entry = listed.prompts.find((p) => p.name === 'code-review');
    expect(entry?.arguments?.map((a) => a.name)).toEqual(['code', 'tone']);
    await shot(page, '04-prompt-page', true);

    // Version 2, activated on save.
    await page.getByTestId('action-new-version').click();
    await page.getByTestId('msg-text-0').fill('Review this code carefully{{#tone}} in a {{tone}} tone{{/tone}}:\n{{code}}\nList the three biggest risks first.');
    await page.getByTestId('editor-note').fill('Ask for risks first');
    await page.getByTestId('editor-activate').check();
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('flash'), 'Saved v2');
    await waitForText(page.getByTestId('prompt-status'), 'serving v2');
    let got = await mcp.getPrompt({ name: 'code-review', arguments: { code: 'x = 1' } });
    expect(JSON.stringify(got.messages[0]?.content)).toContain('three biggest risks');

    // Diff v1 → v2: the changed template line shows on both sides.
    await page.getByTestId('diff-from').selectOption('1');
    await page.getByTestId('diff-to').selectOption('2');
    await waitForText(page.getByTestId('diff-summary'), 'differ between v1 and v2');
    const changed = page.locator('[data-testid="diff-row"][data-kind="changed"]');
    await waitForText(changed, 'Review this code carefully');
    const line = changed.filter({ hasText: 'Review this code carefully' }).locator('td.diff-text');
    expect(await line.nth(0).textContent()).toContain('Review this code{{#tone}}');
    expect(await line.nth(1).textContent()).toContain('Review this code carefully{{#tone}}');
    // The change note is shown apart from the content lines.
    await waitForText(page.getByTestId('diff-note-to'), 'Ask for risks first');
    await waitForText(page.locator('[data-testid="diff-row"][data-kind="add"], [data-testid="diff-row"][data-kind="changed"]'), 'three biggest risks');
    await page.getByTestId('diff-view').scrollIntoViewIfNeeded();
    await shot(page, '05-diff', true);

    // Roll back to v1 (one click + confirm).
    const rollback = page.locator('[data-testid="version-row"][data-version="1"] [data-testid="version-activate"]');
    expect(await rollback.textContent()).toBe('Roll back to v1');
    await confirm(page, rollback);
    await waitForText(page.getByTestId('prompt-status'), 'serving v1');
    await page.locator('[data-testid="version-row"][data-version="1"] [data-testid="version-active-badge"]').waitFor();
    got = await mcp.getPrompt({ name: 'code-review', arguments: { code: 'x = 1' } });
    expect(JSON.stringify(got.messages[0]?.content)).not.toContain('three biggest risks');
    expect(JSON.stringify(got.messages[1]?.content)).toContain('Prefer small functions');

    // The list shows the active and latest version at a glance.
    await page.getByTestId('nav-prompts').click();
    const row = page.locator('[data-testid="prompt-row"][data-name="code-review"]');
    await waitForText(row.getByTestId('row-active'), 'active v1');
    expect(await row.getByTestId('row-latest').textContent()).toBe('latest v2');
    await shot(page, '02-prompt-list');
    await page.getByTestId('nav-resources').click();
    await page.getByRole('button', { name: 'Open docs://style-guide' }).click();
    await waitForText(page.getByTestId('resource-used-by'), 'code-review');
    await shot(page, '06-resources', true);
    await page.getByTestId('nav-connect').click();
    expect(await page.getByTestId('mcp-url').inputValue()).toBe(`${base}/mcp`);
    await shot(page, '07-connect');
    expect(errors).toEqual([]);
  });

  it('a 422 from the API appears next to the offending field', async () => {
    const { server, page, errors } = await setup();
    await signIn(page, server.url);
    await page.getByTestId('new-prompt').click();
    await page.getByTestId('editor-name').fill('greeting');
    await page.getByTestId('msg-text-0').fill('Hello {{who}}, welcome!');
    await page.getByTestId('msg-add').click();
    await page.getByTestId('msg-text-1').fill('Thanks.');
    // Flagged before saving (client-side warning, not the server's error).
    await page.locator('[data-warning-for="messages[0].content.text"]').waitFor();
    expect(await page.locator('[data-error-for]').count()).toBe(0);
    await page.getByTestId('editor-save').click();

    const err = page.locator('[data-error-for="messages[0].content.text"]');
    await err.waitFor();
    expect(await err.getAttribute('role')).toBe('alert');
    expect(await err.textContent()).toContain('who');
    // Next to the field: inside the first message's row, right after its template input.
    const firstMsg = page.getByTestId('msg-row').nth(0);
    expect(await firstMsg.locator('[data-error-for="messages[0].content.text"]').count()).toBe(1);
    expect(await page.getByTestId('msg-row').nth(1).locator('[data-error-for]').count()).toBe(0);
    expect(await page.getByTestId('msg-text-0').getAttribute('aria-invalid')).toBe('true');
    await waitForText(page.getByTestId('editor-message'), 'Message 1 template');
    await shot(page, '08-editor-422', true);
    // Nothing was saved.
    expect((await rest<{ items: unknown[] }>(server.url, 'GET', '/prompts?archived=all')).items).toHaveLength(0);

    // A token that stops working mid-session (revoked) sends the author back to sign-in, saying why.
    await page.evaluate(() => sessionStorage.setItem('promptd.adminToken', 'revoked-token'));
    await page.getByTestId('nav-prompts').click();
    // The unsaved (refused) edits make the editor ask first.
    await page.getByTestId('confirm-dialog').getByTestId('confirm-ok').click();
    await waitForText(page.getByTestId('signin-error'), 'Token rejected');
    expect(errors).toEqual([]);
  });

  it('a change made by another client shows up live in the open list and prompt page', async () => {
    const { server, page, errors } = await setup(420);
    await signIn(page, server.url);
    const body = (text: string) => ({ arguments: [{ name: 'topic', required: true }], messages: [{ role: 'user', content: { type: 'text', text } }] });
    await rest(server.url, 'POST', '/prompts', { name: 'already-here', ...body('About {{topic}}') });
    await page.locator('[data-testid="prompt-row"][data-name="already-here"]').waitFor();

    // Another client creates a prompt: it appears without a reload.
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await rest(server.url, 'POST', '/prompts', { name: 'from-elsewhere', title: 'Made by a script', ...body('Summarize {{topic}}') });
    const row = page.locator('[data-testid="prompt-row"][data-name="from-elsewhere"]');
    await row.waitFor({ timeout: 10_000 });
    await waitForText(row.getByTestId('row-active'), 'not served');
    await shot(page, '09-live-list-narrow', true);

    // ...and activating it elsewhere updates the open prompt page.
    await row.getByRole('link', { name: 'from-elsewhere' }).click();
    await waitForText(page.getByTestId('prompt-status'), 'not served');
    await rest(server.url, 'PUT', '/prompts/from-elsewhere/active', { version: 1 });
    await waitForText(page.getByTestId('prompt-status'), 'serving v1', 10_000);
    await rest(server.url, 'POST', '/prompts/from-elsewhere/versions', { note: 'tweak', ...body('Summarize {{topic}} briefly') });
    await page.locator('[data-testid="version-row"][data-version="2"]').waitFor({ timeout: 10_000 });

    // An open editor learns that someone else saved first, and a save then is refused with 412 (no lost update).
    await page.getByTestId('action-new-version').click();
    await page.getByTestId('msg-text-0').fill('Summarize {{topic}} in one line');
    await rest(server.url, 'POST', '/prompts/from-elsewhere/versions', { note: 'someone else', ...body('Summarize {{topic}} for a child') });
    await waitForText(page.getByTestId('editor-stale'), 'Someone else just saved v3', 10_000);
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('editor-message'), 'Someone else changed this prompt');
    expect((await rest<{ latestVersion: number }>(server.url, 'GET', '/prompts/from-elsewhere')).latestVersion).toBe(3);
    await page.getByTestId('editor-keep').click();
    // Keeping fetches the latest ETag first; the conflict banner goes once it has it (a
    // save clicked before that still carries v2's ETag and is refused again).
    await page.getByTestId('editor-message').waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('flash'), 'Saved v4');
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(errors).toEqual([]);
  });
});
