// axe-core on every page of the admin UI, with content on each (0 violations).
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningServer } from '../../src/server.js';
import { rest, signIn } from './harness.js';
import { axeViolations, expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI: axe-core on every page', () => {
  const { setup, onCleanup } = useE2E();

  it.each(['light', 'dark'] as const)('sign-in, prompts, prompt, editor, new prompt, resources, connect, labels, bin, activity, tokens, usage, not found (%s mode)', async (scheme) => {
    const { server, page } = await setup();
    await page.emulateMedia({ colorScheme: scheme });
    const base = server.url;
    await page.goto(`${base}/admin/`);
    await page.getByLabel('Admin token').waitFor();
    await expectNoAxeViolations(page, 'sign-in');

    await rest(base, 'POST', '/resources', { uri: 'docs://axe', name: 'Axe doc', mimeType: 'text/plain', text: 'hello' });
    await rest(base, 'POST', '/prompts', {
      name: 'axe-prompt',
      title: 'Axe prompt',
      arguments: [{ name: 'topic', required: true, choices: ['a', 'b'] }],
      messages: [{ role: 'user', content: { type: 'text', text: 'About {{topic}}' } }, { role: 'user', content: { type: 'resource', uri: 'docs://axe' } }],
      activate: true,
    });
    await rest(base, 'POST', '/prompts/axe-prompt/versions', { arguments: [{ name: 'topic', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'On {{topic}}' } }] });
    // Labels (chips, moves, the Labels page) and the bin need content too.
    await rest(base, 'PUT', '/prompts/axe-prompt/labels/staging', { version: 2 });
    await rest(base, 'POST', '/prompts', { name: 'axe-deleted', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] });
    await rest(base, 'DELETE', '/prompts/axe-deleted');
    await rest(base, 'POST', '/tokens', { name: 'axe-bot' });
    // Usage for the prompt page's panel and the dashboard: fetches through production and staging, and a failure.
    const mcp = new Client({ name: 'axe-client', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?label=staging`)));
    onCleanup(() => mcp.close());
    await mcp.getPrompt({ name: 'axe-prompt', arguments: { topic: 'a' } });
    await mcp.getPrompt({ name: 'axe-prompt' }).catch(() => {});
    await (server as unknown as RunningServer).core.usage.flush();
    await signIn(page, base);
    await page.locator('[data-testid="prompt-row"][data-name="axe-prompt"]').waitFor();
    await expectNoAxeViolations(page, 'prompt list');

    // The theme really is the one asked for (a dark run that stayed light would prove nothing).
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(scheme);
    const pages: [string, string][] = [
      ['/admin/prompts/axe-prompt', 'prompt page'],
      ['/admin/prompts/axe-prompt/edit', 'editor'],
      ['/admin/new', 'new prompt'],
      ['/admin/resources', 'resources'],
      ['/admin/connect', 'connect'],
      ['/admin/labels', 'labels'],
      ['/admin/bin', 'deleted prompts'],
      ['/admin/?label=staging', 'prompts filtered by label'],
      ['/admin/activity', 'activity'],
      ['/admin/activity?action=prompt.*', 'activity (filtered)'],
      ['/admin/tokens', 'tokens'],
      ['/admin/usage', 'usage dashboard'],
      ['/admin/usage?range=24h', 'usage dashboard (24 h)'],
      ['/admin/?sort=lastUsed', 'prompts by recent use'],
      ['/admin/no-such-page', 'not found'],
    ];
    for (const [path, where] of pages) {
      await page.goto(`${base}${path}`);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => {});
      // The usage panel and dashboard are checked with their numbers and charts on screen.
      if (path === '/admin/prompts/axe-prompt') await page.locator('[data-testid="usage-chart"] canvas').waitFor();
      if (path.startsWith('/admin/usage')) await page.locator('[data-testid="usage-overall-chart"] canvas').waitFor();
      await expectNoAxeViolations(page, `${where} (${scheme})`);
    }
    // The screens added by issue 22: a restored draft and a failed save, the diff with word marks, a 412 conflict.
    await page.goto(`${base}/admin/prompts/axe-prompt/edit`);
    await page.getByTestId('msg-text-0').fill('On {{topic}} today');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('promptd.draft:axe-prompt') ?? '')).toContain('today');
    page.once('dialog', (d) => void d.accept()); // beforeunload: unsaved edits
    await page.reload();
    await page.getByTestId('draft-restored').waitFor();
    await rest(base, 'POST', '/prompts/axe-prompt/versions', { arguments: [{ name: 'topic', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Elsewhere {{topic}}' } }] });
    await page.getByTestId('editor-stale').waitFor();
    await page.getByTestId('editor-save').click();
    await page.getByTestId('conflict-diff-view').waitFor();
    await expectNoAxeViolations(page, `editor with a restored draft and a conflict (${scheme})`);
    await page.getByTestId('diff-mode-unified').check();
    await expectNoAxeViolations(page, `unified conflict diff (${scheme})`);
    // The check itself can fail: an image without a text alternative is reported.
    await page.evaluate(() => document.querySelector('main, body')!.append(Object.assign(document.createElement('img'), { src: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' })));
    expect((await axeViolations(page)).map((v) => v.id)).toContain('image-alt');
  });
});
