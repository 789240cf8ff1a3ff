// Access control in the admin UI against a real server: the tokens page's role picker
// and MCP token form, tag chips and the tag filter on the list, editing tags on the
// prompt page, and a reader's UI without write buttons; axe-core finds 0 violations.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, signIn } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

const prompt = (name: string, tags: string[]) => ({
  name, description: `prompt ${name}`, tags, arguments: [{ name: 'who', required: true }],
  messages: [{ role: 'user', content: { type: 'text', text: 'Hello {{who}}' } }], activate: true,
});

async function signInAs(page: Page, base: string, token: string) {
  await page.goto(`${base}/admin/`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor();
}

describe.skipIf(skipE2E)('admin UI: access control', () => {
  const { setup } = useE2E();

  it('tokens page: pick a role, create an MCP token with label and tags; both show in the list', async () => {
    const { server, page, errors } = await setup();
    // An MCP token's label must be one some prompt carries (#37.4).
    await rest(server.url, 'POST', '/prompts', prompt('on-staging', []));
    await rest(server.url, 'PUT', '/prompts/on-staging/labels/staging', { version: 1 });
    await signIn(page, server.url);
    await page.getByTestId('my-role').waitFor();
    expect(await page.getByTestId('my-role').textContent()).toBe('admin');
    await page.getByTestId('nav-tokens').click();
    await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('docs-reader');
    await page.getByTestId('token-role').selectOption('reader');
    await expectNoAxeViolations(page, 'tokens (role picker)');
    await page.getByTestId('token-create').click();
    await page.getByTestId('token-secret').waitFor();
    const reader = page.locator('[data-testid="token-row"][data-name="docs-reader"]');
    await reader.waitFor();
    expect(await reader.getByTestId('token-access').textContent()).toBe('reader');

    await page.getByTestId('token-kind-mcp').check();
    await page.getByLabel('Name').fill('cursor-team-a');
    await page.getByTestId('token-label').fill('staging');
    await page.getByTestId('token-tags').fill('team-a');
    await expectNoAxeViolations(page, 'tokens (MCP token form)');
    await page.getByTestId('token-create').click();
    const mcp = page.locator('[data-testid="token-row"][data-name="cursor-team-a"]');
    await mcp.waitFor();
    expect(await mcp.getByTestId('token-access').textContent()).toBe('MCP · staging · #team-a');
    expect(await page.getByTestId('token-secret').inputValue()).toMatch(/^pdm_/);
    expect(errors).toEqual([]);
  });

  it('tag chips, the tag filter, editing tags; a reader sees no write buttons', async () => {
    const { server, page, errors } = await setup();
    await rest(server.url, 'POST', '/prompts', prompt('alpha', ['team-a']));
    await rest(server.url, 'POST', '/prompts', prompt('beta', ['team-b']));
    await signIn(page, server.url);
    const row = (n: string) => page.locator(`[data-testid="prompt-row"][data-name="${n}"]`);
    await row('alpha').waitFor();
    expect(await row('alpha').getByTestId('tag-chip').allTextContents()).toEqual(['#team-a']);
    await page.getByTestId('prompt-tag-filter').fill('team-b');
    await page.waitForFunction(() => !document.querySelector('[data-testid="prompt-row"][data-name="alpha"]'));
    await row('beta').waitFor();
    expect(page.url()).toContain('tag=team-b');
    await expectNoAxeViolations(page, 'list (tag filter)');

    await row('beta').getByRole('link', { name: 'beta' }).click();
    await page.getByTestId('prompt-heading').waitFor();
    await page.getByTestId('tags-edit').click();
    await page.getByTestId('tags-input').fill('team-b, Bad Tag');
    await page.getByTestId('tags-save').click();
    await page.getByRole('alert').filter({ hasText: 'is not a tag' }).waitFor();
    await expectNoAxeViolations(page, 'prompt (tag error)');
    await page.getByTestId('tags-input').fill('team-b, support');
    await page.getByTestId('tags-save').click();
    await page.locator('[data-testid="tag-chip"][data-tag="support"]').waitFor();
    const stored = await rest<{ tags: string[] }>(server.url, 'GET', '/prompts/beta');
    expect(stored.tags).toEqual(['support', 'team-b']);

    // A reader: everything readable, nothing writable offered.
    const created = await rest<{ token: string }>(server.url, 'POST', '/tokens', { name: 'viewer', role: 'reader' });
    await page.getByTestId('sign-out').click();
    await signInAs(page, server.url, created.token);
    await page.getByTestId('my-role').waitFor();
    expect(await page.getByTestId('my-role').textContent()).toBe('reader');
    await row('alpha').waitFor();
    for (const id of ['new-prompt', 'import-open', 'open-bin', 'nav-tokens', 'nav-webhooks']) expect(await page.getByTestId(id).count(), id).toBe(0);
    await expectNoAxeViolations(page, 'list (reader)');
    await row('alpha').getByRole('link', { name: 'alpha' }).click();
    await page.getByTestId('prompt-heading').waitFor();
    await page.getByTestId('version-preview').first().waitFor();
    for (const id of ['action-new-version', 'action-delete', 'action-archive', 'tags-edit', 'version-labels', 'version-activate']) {
      expect(await page.getByTestId(id).count(), id).toBe(0);
    }
    expect(await page.getByTestId('tag-chip').allTextContents()).toEqual(['#team-a']);
    await expectNoAxeViolations(page, 'prompt (reader)');
    expect(errors).toEqual([]);
  });
});
