// Message annotations (audience, priority) and prompt icons in the version editor, checked through REST and MCP.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { rest, shot, signIn, waitForText } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SVG = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4" fill="#1f4fd1"/></svg>').toString('base64')}`;

interface Msg { role: string; content: { type: string; annotations?: unknown } }
interface Ver { icons: unknown; messages: Msg[] }

describe.skipIf(skipE2E)('admin UI: annotations and icons', () => {
  const { setup, onCleanup } = useE2E();

  it('edits audience/priority per message and the icon list; 422 lands on the priority; REST, MCP and the diff agree', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', {
      name: 'tagged',
      activate: true,
      icons: [{ src: PNG, mimeType: 'image/png', sizes: ['48x48'] }],
      arguments: [{ name: 'who', required: true }],
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hello {{who}}', annotations: { audience: ['user'], priority: 0.5 } } },
        { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
      ],
    });
    const mcp = new Client({ name: 'e2e-annotations', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    onCleanup(() => mcp.close());

    await signIn(page, base);
    await page.locator('[data-testid="prompt-row"][data-name="tagged"]').getByRole('link', { name: 'tagged' }).click();
    await page.getByTestId('action-new-version').click();

    // The editor starts from v1: annotations shown (open where set), icons listed with a preview.
    const ann0 = page.getByTestId('msg-annotations-0');
    expect(await ann0.getAttribute('open')).not.toBeNull();
    expect(await page.getByTestId('msg-audience-user-0').isChecked()).toBe(true);
    expect(await page.getByTestId('msg-audience-assistant-0').isChecked()).toBe(false);
    expect(await page.getByTestId('msg-priority-0').inputValue()).toBe('0.5');
    expect(await page.getByTestId('msg-annotations-1').getAttribute('open')).toBeNull();
    expect(await page.getByTestId('msg-annotations-summary-1').textContent()).toBe('(none)');
    expect(await page.getByTestId('icon-row').count()).toBe(1);
    expect(await page.getByTestId('icon-src-0').inputValue()).toBe(PNG);
    expect(await page.getByTestId('icon-sizes-0').inputValue()).toBe('48x48');
    expect(await page.locator('[data-testid="icon-row"] img.icon-thumb').count()).toBe(1);

    // Edit message 1's annotations; open message 2's and give it an out-of-range priority.
    await page.getByTestId('msg-audience-assistant-0').check();
    await page.getByTestId('msg-priority-0').fill('0.9');
    await waitForText(page.getByTestId('msg-annotations-summary-0'), 'for user and assistant, priority 0.9');
    await page.getByTestId('msg-annotations-1').locator('summary').click();
    await page.getByTestId('msg-audience-assistant-1').check();
    await page.getByTestId('msg-priority-1').fill('1.5');
    await page.locator('[data-warning-for="messages[1].content.annotations.priority"]').waitFor();
    // The draft preview shows the annotations too.
    await page.getByTestId('preview-arg-who').fill('Ada');
    await waitForText(page.getByTestId('preview-annotations'), 'for user and assistant · priority 0.9');

    // Icons: a bad size is flagged, a second icon is added.
    await page.getByTestId('icon-sizes-0').fill('48x48 huge');
    await waitForText(page.locator('[data-warning-for="icons[0].sizes"]'), 'huge');
    await page.getByTestId('icon-sizes-0').fill('48x48, 96x96');
    await page.locator('[data-warning-for="icons[0].sizes"]').waitFor({ state: 'detached' });
    await page.getByTestId('icon-add').click();
    await page.getByTestId('icon-src-1').fill(SVG);
    await page.getByTestId('icon-mime-1').fill('image/svg+xml');
    await page.getByTestId('icon-sizes-1').fill('any');
    await page.locator('[data-testid="icon-row"]:nth-child(2) img.icon-thumb').waitFor();
    await shot(page, '11-editor-annotations-icons', true);

    // The server refuses priority 1.5, next to that field; nothing is saved.
    await page.getByTestId('editor-save').click();
    const err = page.getByTestId('msg-row').nth(1).locator('[data-error-for="messages[1].content.annotations.priority"]');
    await err.waitFor();
    expect(await page.getByTestId('msg-priority-1').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('msg-row').nth(0).locator('[data-error-for]').count()).toBe(0);
    expect((await rest<{ latestVersion: number }>(base, 'GET', '/prompts/tagged')).latestVersion).toBe(1);

    await page.getByTestId('msg-priority-1').fill('0.2');
    await page.getByTestId('editor-activate').check();
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('flash'), 'Saved v2');
    const v2 = await rest<Ver>(base, 'GET', '/prompts/tagged/versions/2');
    expect(v2.messages.map((m) => m.content.annotations)).toEqual([{ audience: ['user', 'assistant'], priority: 0.9 }, { audience: ['assistant'], priority: 0.2 }]);
    expect(v2.icons).toEqual([{ src: PNG, mimeType: 'image/png', sizes: ['48x48', '96x96'] }, { src: SVG, mimeType: 'image/svg+xml', sizes: ['any'] }]);

    // MCP clients get them: annotations in prompts/get, icons in prompts/list.
    const got = await mcp.getPrompt({ name: 'tagged', arguments: { who: 'Ada' } });
    expect(got.messages[0]?.content).toMatchObject({ annotations: { audience: ['user', 'assistant'], priority: 0.9 } });
    const listed = (await mcp.listPrompts()).prompts.find((p) => p.name === 'tagged') as { icons?: { src: string }[] } | undefined;
    expect(listed?.icons?.map((i) => i.src)).toEqual([PNG, SVG]);

    // The diff shows both changes.
    await page.getByTestId('diff-from').selectOption('1');
    await page.getByTestId('diff-to').selectOption('2');
    const changed = page.locator('[data-testid="diff-row"][data-kind="changed"], [data-testid="diff-row"][data-kind="add"]');
    await waitForText(changed, 'audience: user, assistant');
    await waitForText(changed, 'icon 2: data:image/svg+xml');

    // v3: clearing annotations and removing an icon drops them from the body.
    await page.getByTestId('action-new-version').click();
    await page.getByTestId('msg-audience-user-0').uncheck();
    await page.getByTestId('msg-audience-assistant-0').uncheck();
    await page.getByTestId('msg-priority-0').fill('');
    await waitForText(page.getByTestId('msg-annotations-summary-0'), '(none)');
    await page.getByTestId('icon-remove-0').click();
    await page.getByTestId('editor-save').click();
    await waitForText(page.getByTestId('flash'), 'Saved v3');
    const v3 = await rest<Ver>(base, 'GET', '/prompts/tagged/versions/3');
    expect(v3.messages[0]?.content.annotations).toBeUndefined();
    expect(v3.messages[1]?.content.annotations).toEqual({ audience: ['assistant'], priority: 0.2 });
    expect(v3.icons).toEqual([{ src: SVG, mimeType: 'image/svg+xml', sizes: ['any'] }]);
    expect(errors).toEqual([]);
  });
});
