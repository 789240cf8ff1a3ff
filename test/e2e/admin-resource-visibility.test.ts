// Resource visibility in the admin UI: the create and edit forms carry a public/bound
// control with a one-line explanation (default bound), the list and detail show it, and
// an MCP client's resources/list sees only the public ones. axe-core: 0 violations.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { rest, signIn, until, waitForText } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

interface Res { uri: string; visibility: 'public' | 'bound' }

describe.skipIf(skipE2E)('admin UI: resource visibility', () => {
  const { setup, onCleanup } = useE2E();

  it('create bound (default) and public, show it, edit bound → public; MCP lists only public', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    const mcp = new Client({ name: 'e2e-visibility', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    onCleanup(() => mcp.close());
    const listed = async () => (await mcp.listResources()).resources.map((r) => r.uri).sort();
    const stored = async () => Object.fromEntries((await rest<{ items: Res[] }>(base, 'GET', '/resources')).items.map((r) => [r.uri, r.visibility]));

    await signIn(page, base);
    await page.getByTestId('nav-resources').click();
    const form = page.getByTestId('resource-text-form');
    expect(await form.getByTestId('res-visibility-bound').isChecked()).toBe(true);
    await waitForText(form.getByTestId('res-visibility-help'), 'Only reachable embedded in a served prompt');
    await expectNoAxeViolations(page, 'resources with the visibility control');

    const create = async (uri: string, pub: boolean) => {
      await form.getByTestId('res-uri').fill(uri);
      await form.getByTestId('res-name').fill(uri);
      await form.getByTestId('res-text').fill('hello');
      // keyboard: the radios are one group; arrow keys move between them
      if (pub) {
        await form.getByTestId('res-visibility-bound').focus();
        await page.keyboard.press('ArrowDown');
        await waitForText(form.getByTestId('res-visibility-help'), 'Listed by resources/list');
      }
      await form.getByTestId('res-create').click();
      await page.locator(`[data-testid="resource-row"][data-uri="${uri}"]`).waitFor();
    };
    await create('docs://secret', false);
    await create('docs://open', true);
    expect(await stored()).toEqual({ 'docs://open': 'public', 'docs://secret': 'bound' });
    expect(await form.getByTestId('res-visibility-bound').isChecked()).toBe(true); // reset after create
    const badge = (uri: string) => page.locator(`[data-testid="resource-row"][data-uri="${uri}"] [data-testid="resource-visibility"]`).first().getAttribute('data-visibility');
    expect(await badge('docs://secret')).toBe('bound');
    expect(await badge('docs://open')).toBe('public');
    expect(await listed()).toEqual(['docs://open']);

    // Edit: the form starts from the stored value; switching to public is saved.
    await page.getByRole('button', { name: 'Open docs://secret' }).click();
    const detail = page.getByTestId('resource-detail');
    expect(await detail.getByTestId('resource-meta').getByTestId('resource-visibility').getAttribute('data-visibility')).toBe('bound');
    await detail.getByTestId('resource-edit').click();
    const edit = page.getByTestId('resource-edit-form');
    expect(await edit.getByTestId('res-edit-visibility-bound').isChecked()).toBe(true);
    await expectNoAxeViolations(page, 'resource edit form with visibility');
    await edit.getByTestId('res-edit-visibility-public').check();
    await edit.getByTestId('res-edit-save').click();
    await until(async () => (await stored())['docs://secret'] === 'public', 'docs://secret saved public');
    await until(async () => (await badge('docs://secret')) === 'public', 'the list badge to say public');
    expect(await listed()).toEqual(['docs://open', 'docs://secret']);
    expect(errors).toEqual([]);
  });
});
