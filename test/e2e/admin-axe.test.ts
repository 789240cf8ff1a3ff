// axe-core on every page of the admin UI, with content on each (0 violations).
import { describe, expect, it } from 'vitest';
import { rest, signIn } from './harness.js';
import { axeViolations, expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI: axe-core on every page', () => {
  const { setup } = useE2E();

  it('sign-in, prompts, prompt, editor, new prompt, resources, connect, not found', async () => {
    const { server, page } = await setup();
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
    await signIn(page, base);
    await page.locator('[data-testid="prompt-row"][data-name="axe-prompt"]').waitFor();
    await expectNoAxeViolations(page, 'prompt list');

    const pages: [string, string][] = [
      ['/admin/prompts/axe-prompt', 'prompt page'],
      ['/admin/prompts/axe-prompt/edit', 'editor'],
      ['/admin/new', 'new prompt'],
      ['/admin/resources', 'resources'],
      ['/admin/connect', 'connect'],
      ['/admin/no-such-page', 'not found'],
    ];
    for (const [path, where] of pages) {
      await page.goto(`${base}${path}`);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => {});
      await expectNoAxeViolations(page, where);
    }
    // The check itself can fail: an image without a text alternative is reported.
    await page.evaluate(() => document.querySelector('main, body')!.append(Object.assign(document.createElement('img'), { src: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' })));
    expect((await axeViolations(page)).map((v) => v.id)).toContain('image-alt');
  });
});
