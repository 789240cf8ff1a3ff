// The main screens at a phone-like width: nothing scrolls sideways, and screenshots for a look.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, shot, signIn } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Elements wider than the viewport (the page itself must not scroll sideways; .diff-scroll may). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => {
      if (el.closest('.diff-scroll, .sr-only')) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.right > w + 1 || r.left < -1) && getComputedStyle(el).position !== 'fixed';
    });
    return { scroll: document.documentElement.scrollWidth - w, wide: wide.slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`) };
  });

describe.skipIf(skipE2E)('admin UI at a narrow width', () => {
  const { setup } = useE2E();

  it('list, prompt page, editor, resources and connect fit 390px without sideways scrolling', async () => {
    const { server, page, errors } = await setup(390, 844);
    const base = server.url;
    const body = (text: string) => ({
      arguments: [{ name: 'topic', description: 'What to explain', required: true }, { name: 'tone', choices: ['plain', 'playful'], required: false }],
      messages: [
        { role: 'user', content: { type: 'text', text, annotations: { audience: ['user'], priority: 0.8 } } },
        { role: 'user', content: { type: 'resource', uri: 'docs://style-guide-with-a-rather-long-uri/section/one' } },
      ],
    });
    await rest(base, 'POST', '/resources', { uri: 'docs://style-guide-with-a-rather-long-uri/section/one', name: 'Style guide', mimeType: 'text/markdown', text: '# House style\nShort sentences.' });
    await rest(base, 'POST', '/resources', { uri: 'files://dot.png', name: 'Dot', mimeType: 'image/png', blob: PNG });
    await rest(base, 'POST', '/resource-templates', { uriTemplate: 'logs://recent{?timeframe}', name: 'Logs', mimeType: 'text/plain', text: 'Logs for {{timeframe}}' });
    await rest(base, 'POST', '/prompts', { name: 'explain-a-very-long-prompt-name-for-narrow-screens', title: 'Explain something', note: 'first', icons: [{ src: `data:image/png;base64,${PNG}`, sizes: ['48x48'] }], activate: true, ...body('Explain {{topic}}{{#tone}} in a {{tone}} tone{{/tone}}.') });
    await rest(base, 'POST', '/prompts/explain-a-very-long-prompt-name-for-narrow-screens/versions', { note: 'shorter', ...body('Explain {{topic}} briefly{{#tone}} in a {{tone}} tone{{/tone}}.') });
    const name = 'explain-a-very-long-prompt-name-for-narrow-screens';
    await signIn(page, base);
    const screens: [string, () => Promise<void>][] = [
      ['list', async () => void (await page.locator(`[data-testid="prompt-row"][data-name="${name}"]`).waitFor())],
      ['prompt', async () => {
        await page.goto(`${base}/admin/prompts/${name}`);
        await page.getByTestId('diff-summary').waitFor();
        await page.getByTestId('preview-arg-topic').fill('tides');
        await page.getByTestId('preview-output').waitFor();
      }],
      ['editor', async () => {
        await page.goto(`${base}/admin/prompts/${name}/edit`);
        await page.getByTestId('msg-text-0').waitFor();
        await page.getByTestId('preview-arg-topic').fill('tides');
      }],
      ['resources', async () => {
        await page.goto(`${base}/admin/resources`);
        await page.getByRole('button', { name: 'Open files://dot.png' }).click();
        await page.getByTestId('resource-edit').click();
        await page.getByTestId('template-edit').click();
      }],
      ['connect', async () => void (await page.goto(`${base}/admin/connect`))],
    ];
    for (const [label, open] of screens) {
      await open();
      await page.waitForTimeout(150);
      expect({ label, ...(await overflow(page)) }).toEqual({ label, scroll: 0, wide: [] });
      await shot(page, `narrow-${label}`, true);
    }
    expect(errors).toEqual([]);
  });
});
