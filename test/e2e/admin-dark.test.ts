// Dark mode follows prefers-color-scheme with AA contrast; the Connect page's stdio snippet names the real database (issue 22, item 9).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, shot, signIn } from './harness.js';
import { contrastIssues } from './a11y.js';
import { skipE2E, useE2E } from './suite.js';

/** Relative luminance of the page background (0 black … 1 white). */
const backgroundLuminance = (page: Page) =>
  page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.documentElement).backgroundColor.match(/\d+(\.\d+)?/g)!.map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  });

describe.skipIf(skipE2E)('admin UI: dark mode and the Connect page', () => {
  const { setup } = useE2E();

  it('follows the system color scheme, keeps AA contrast in dark mode, and the stdio snippet names the server database', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/resources', { uri: 'docs://dark', name: 'Dark doc', mimeType: 'text/plain', text: 'night' });
    await rest(base, 'POST', '/prompts', {
      name: 'night-owl', title: 'Night owl', activate: true, note: 'first',
      arguments: [{ name: 'topic', required: true, description: 'What to explain' }],
      messages: [{ role: 'user', content: { type: 'text', text: 'Explain {{topic}} quietly.' } }, { role: 'user', content: { type: 'resource', uri: 'docs://dark' } }],
    });
    await rest(base, 'POST', '/prompts/night-owl/versions', { note: 'louder', arguments: [{ name: 'topic', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Explain {{topic}} loudly.' } }] });

    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, base);
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.8);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await backgroundLuminance(page)).toBeLessThan(0.05);

    const screens: [string, () => Promise<void>][] = [
      ['list', async () => void (await page.locator('[data-testid="prompt-row"][data-name="night-owl"]').waitFor())],
      ['prompt', async () => {
        await page.goto(`${base}/admin/prompts/night-owl`);
        await page.getByTestId('diff-summary').waitFor();
        await page.getByTestId('version-view').waitFor();
      }],
      ['editor', async () => {
        await page.goto(`${base}/admin/prompts/night-owl/edit`);
        await page.getByTestId('msg-text-0').fill('Explain {{topic}} to {{who}}');
        await page.locator('[data-warning-for="messages[0].content.text"]').waitFor();
      }],
      ['resources', async () => {
        page.once('dialog', (d) => void d.accept());
        await page.goto(`${base}/admin/resources`);
        await page.getByRole('button', { name: 'Open docs://dark' }).click();
      }],
      ['connect', async () => {
        await page.goto(`${base}/admin/connect`);
        await page.getByTestId('stdio-config').waitFor();
      }],
    ];
    for (const [label, open] of screens) {
      await open();
      expect({ label, issues: await contrastIssues(page) }).toEqual({ label, issues: [] });
      await shot(page, `dark-${label}`, true);
    }

    // The stdio snippet carries this server's database (absolute), not a placeholder.
    const info = await rest<{ database: { url: string } }>(base, 'GET', '/server-info');
    await expect.poll(async () => JSON.parse(await page.getByTestId('stdio-config').inputValue()).mcpServers.promptd.env.DATABASE_URL).toBe(info.database.url);
    expect(info.database.url).toMatch(/^file:\/.+e2e\.db$/);
    expect(errors).toEqual([]);
  });
});
