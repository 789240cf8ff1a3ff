// Editing resources and resource templates in the UI (PUT with the full body), in headless Chromium.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, shot, signIn, until, waitForText } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF_1PX = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';

interface Res { id: number; uri: string; name: string; title: string | null; description: string | null; mimeType: string; text?: string; blob?: string }
interface Tpl { id: number; uriTemplate: string; name: string; title: string | null; mimeType: string; text: string }

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent?.trim() ?? null);

describe.skipIf(skipE2E)('admin UI: editing resources and templates', () => {
  const { setup } = useE2E();

  it('edits a text resource (422 next to the field, warning on a bound URI), replaces a binary file, edits a template', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    const text = await rest<Res>(base, 'POST', '/resources', { uri: 'docs://guide', name: 'Guide', title: 'House guide', description: 'How we write.', mimeType: 'text/markdown', text: 'Old rules.' });
    const bin = await rest<Res>(base, 'POST', '/resources', { uri: 'files://dot.png', name: 'Dot', mimeType: 'image/png', blob: PNG_1PX });
    const tpl = await rest<Tpl>(base, 'POST', '/resource-templates', { uriTemplate: 'logs://recent{?timeframe}', name: 'Logs', mimeType: 'text/plain', text: 'Logs for {{timeframe}}' });
    await rest(base, 'POST', '/prompts', { name: 'uses-guide', activate: true, messages: [{ role: 'user', content: { type: 'resource', uri: 'docs://guide' } }] });

    await signIn(page, base);
    await page.getByTestId('nav-resources').click();
    await page.getByRole('button', { name: 'Open docs://guide' }).click();
    const detail = page.getByTestId('resource-detail');
    await waitForText(detail.getByTestId('resource-meta'), 'House guide');
    await detail.getByTestId('resource-edit').click();
    const form = page.getByTestId('resource-edit-form');
    // The form opens prefilled with the full current body, focused on its heading.
    await expect.poll(() => activeId(page), { timeout: 10_000 }).toBe('Edit resource');
    expect(await form.getByTestId('res-edit-uri').inputValue()).toBe('docs://guide');
    expect(await form.getByTestId('res-edit-title').inputValue()).toBe('House guide');
    expect(await form.getByTestId('res-edit-description').inputValue()).toBe('How we write.');
    expect(await form.getByTestId('res-edit-text').inputValue()).toBe('Old rules.');

    // Moving a bound resource to another URI warns, naming the active prompt.
    await form.getByTestId('res-edit-uri').fill('docs://guide-2');
    await waitForText(form.locator('[data-warning-for="uri"]'), 'uses-guide v1 (active)');
    await form.getByTestId('res-edit-uri').fill('docs://guide');
    await form.locator('[data-warning-for="uri"]').waitFor({ state: 'detached' });

    // A 422 lands next to the field and changes nothing.
    await form.getByTestId('res-edit-name').fill('Guide v2');
    await form.getByTestId('res-edit-text').fill('New rules: short sentences.');
    await form.getByTestId('res-edit-mime').fill('');
    await form.getByTestId('res-edit-save').click();
    const mimeErr = form.locator('[data-error-for="mimeType"]');
    await mimeErr.waitFor();
    expect(await form.getByTestId('res-edit-mime').getAttribute('aria-invalid')).toBe('true');
    expect((await rest<Res>(base, 'GET', `/resources/${text.id}`)).text).toBe('Old rules.');

    await form.getByTestId('res-edit-mime').fill('text/plain');
    await shot(page, '10-resource-edit', true);
    await form.getByTestId('res-edit-save').click();
    await waitForText(page.getByTestId('resources-flash'), 'Saved docs://guide.');
    await waitForText(detail.getByTestId('resource-text'), 'New rules: short sentences.');
    await expect.poll(() => activeId(page), { timeout: 10_000 }).toBe('resource-edit');
    const saved = await rest<Res>(base, 'GET', `/resources/${text.id}`);
    expect(saved).toMatchObject({ uri: 'docs://guide', name: 'Guide v2', title: 'House guide', description: 'How we write.', mimeType: 'text/plain', text: 'New rules: short sentences.' });
    // The bound prompt now embeds the new text.
    const rendered = await rest<{ messages: { content: { resource?: { text?: string } } }[] }>(base, 'POST', '/prompts/uses-guide/render', { arguments: {} });
    expect(rendered.messages[0]?.content.resource?.text).toBe('New rules: short sentences.');

    // Escape leaves the editor without saving, focus back on Edit.
    await detail.getByTestId('resource-edit').click();
    await form.getByTestId('res-edit-name').fill('Never saved');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => activeId(page), { timeout: 10_000 }).toBe('resource-edit');
    expect((await rest<Res>(base, 'GET', `/resources/${text.id}`)).name).toBe('Guide v2');

    // A binary resource: no text box, a file replaces the content (and its MIME type).
    await page.getByRole('button', { name: 'Close docs://guide' }).click();
    await page.getByRole('button', { name: 'Open files://dot.png' }).click();
    await detail.getByTestId('resource-edit').click();
    expect(await form.getByTestId('res-edit-text').count()).toBe(0);
    await waitForText(form.getByTestId('res-edit-file-status'), 'Keeps the current');
    await form.getByTestId('res-edit-file').setInputFiles({ name: 'dot.gif', mimeType: 'image/gif', buffer: Buffer.from(GIF_1PX, 'base64') });
    expect(await form.getByTestId('res-edit-mime').inputValue()).toBe('image/gif');
    await form.getByTestId('res-edit-save').click();
    await waitForText(page.getByTestId('resources-flash'), 'Saved files://dot.png.');
    expect(await rest<Res>(base, 'GET', `/resources/${bin.id}`)).toMatchObject({ mimeType: 'image/gif', blob: GIF_1PX, name: 'Dot' });
    // Saving again without a new file keeps the bytes.
    await detail.getByTestId('resource-edit').click();
    await form.getByTestId('res-edit-name').fill('Dot (gif)');
    await form.getByTestId('res-edit-save').click();
    await waitForText(page.getByTestId('resources-flash'), 'Saved files://dot.png.');
    await until(async () => (await rest<Res>(base, 'GET', `/resources/${bin.id}`)).name === 'Dot (gif)', 'the second save');
    expect((await rest<Res>(base, 'GET', `/resources/${bin.id}`)).blob).toBe(GIF_1PX);

    // A resource template: a 422 on the content template, then a good save.
    const row = page.locator('[data-testid="template-row"][data-uri="logs://recent{?timeframe}"]');
    await row.getByTestId('template-edit').click();
    const tform = page.getByTestId('template-edit-form');
    expect(await tform.getByTestId('tpl-edit-text').inputValue()).toBe('Logs for {{timeframe}}');
    await tform.getByTestId('tpl-edit-text').fill('Logs for {{timeframe}} on {{host}}');
    await tform.getByTestId('tpl-edit-save').click();
    await waitForText(tform.locator('[data-error-for="text"]'), 'host');
    await tform.getByTestId('tpl-edit-text').fill('Recent logs ({{timeframe}})');
    await tform.getByTestId('tpl-edit-title').fill('Recent logs');
    await tform.getByTestId('tpl-edit-save').click();
    await tform.waitFor({ state: 'detached' });
    await expect.poll(() => activeId(page), { timeout: 10_000 }).toBe('template-edit');
    expect(await rest<Tpl>(base, 'GET', `/resource-templates/${tpl.id}`)).toMatchObject({ name: 'Logs', title: 'Recent logs', text: 'Recent logs ({{timeframe}})', uriTemplate: 'logs://recent{?timeframe}' });
    expect(errors).toEqual([]);
  });
});
