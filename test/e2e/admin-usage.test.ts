// Usage in the admin UI against a real server: two real SDK MCP clients fetch prompts over
// Streamable HTTP (one before and one after production moves to v2), the counts are
// flushed through the core, then the prompt page's usage panel (numbers, the client still
// on v1), the dashboard (top prompts, errors, unused prompts, labels, the CSV download
// with the token in a header), the prompt list's "Recently used" order, 390 px, axe.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningServer } from '../../src/server.js';
import { ROOT, SHOTS, rest, shot, signIn, until, waitForText } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

const msg = (text: string) => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

/** A screenshot for docs/ (also kept with the other e2e screenshots). */
function toDocs(name: string): void {
  mkdirSync(path.join(ROOT, 'docs'), { recursive: true });
  copyFileSync(path.join(SHOTS, `${name}.png`), path.join(ROOT, 'docs', `screenshot-${name}.png`));
}

/** Contrast of each chart colour (usage.css) against the card background, in the current theme. */
const chartContrast = (page: Page) =>
  page.evaluate(() => {
    const css = getComputedStyle(document.documentElement);
    const lum = (color: string) => {
      const hex = color.length === 4 ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color; // #fff
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const bg = lum(css.getPropertyValue('--surface').trim());
    const out: Record<string, number> = {};
    for (const v of ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6', '--chart-error']) {
      const l = lum(css.getPropertyValue(v).trim());
      out[v] = Math.round(((Math.max(l, bg) + 0.05) / (Math.min(l, bg) + 0.05)) * 100) / 100;
    }
    return out;
  });

describe.skipIf(skipE2E)('admin UI: usage', () => {
  const { setup, onCleanup } = useE2E();

  it('panel, still-on-v1 client, dashboard, CSV, recently used, 390 px', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    const core = (server as unknown as RunningServer).core;
    // Every prompt has a required argument: the prompt page's preview then waits for it and
    // renders nothing (a REST render counts as usage too, which would blur the numbers).
    const who = [{ name: 'who', required: true }];
    await rest(base, 'POST', '/prompts', { name: 'greet', arguments: who, ...msg('Hello v1 {{who}}'), activate: true });
    await rest(base, 'POST', '/prompts/greet/versions', { arguments: who, ...msg('Hello v2 {{who}}') });
    await rest(base, 'POST', '/prompts', { name: 'other', arguments: [{ name: 'topic', required: true }], ...msg('About {{topic}}'), activate: true });
    await rest(base, 'POST', '/prompts', { name: 'idle', arguments: who, ...msg('Nobody asks {{who}}'), activate: true });

    const connect = async (name: string) => {
      const c = new Client({ name, version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      onCleanup(() => c.close());
      return c;
    };
    const text = async (c: Client, name: string, args?: Record<string, string>) => {
      const r = await c.getPrompt({ name, arguments: args });
      const content = r.messages[0]!.content;
      return content.type === 'text' ? content.text : '';
    };
    // alpha fetches greet twice while production is v1; then production moves to v2 and beta fetches it three times.
    const alpha = await connect('alpha');
    expect(await text(alpha, 'greet', { who: 'a' })).toBe('Hello v1 a');
    expect(await text(alpha, 'greet', { who: 'a' })).toBe('Hello v1 a');
    await rest(base, 'PUT', '/prompts/greet/active', { version: 2 });
    const beta = await connect('beta');
    for (let i = 0; i < 3; i++) expect(await text(beta, 'greet', { who: 'b' })).toBe('Hello v2 b');
    // other: one failure (a required argument missing), then one success, the last fetch of all.
    await expect(alpha.getPrompt({ name: 'other' })).rejects.toThrow();
    expect(await text(beta, 'other', { topic: 'tea' })).toBe('About tea');
    await core.usage.flush();

    // The prompt page's panel.
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/greet`);
    const panel = page.getByTestId('usage-panel');
    await panel.getByTestId('usage-fetches').waitFor();
    expect(await panel.getByTestId('usage-fetches').textContent()).toBe('5');
    expect(await panel.getByTestId('usage-errors').textContent()).toContain('0');
    const clientRows = panel.getByTestId('usage-client-row');
    expect(await clientRows.evaluateAll((els) => els.map((e) => e.getAttribute('data-client')))).toEqual(['beta', 'alpha']);
    // The client's name and its version apart (issue 37.15).
    expect(await clientRows.getByTestId('usage-client-version').allTextContents()).toEqual([' 1.0.0', ' 1.0.0']);
    expect(await clientRows.getByTestId('usage-client-fetches').allTextContents()).toEqual(['3', '2']);
    const stale = panel.getByTestId('usage-stale-client');
    expect(await stale.evaluateAll((els) => els.map((e) => [e.getAttribute('data-client'), e.getAttribute('data-version')]))).toEqual([['alpha', '1']]);
    await waitForText(stale, 'production now points at v2');
    // The chart's numbers for screen readers: today's row has v1 2, v2 3, total 5.
    const canvas = panel.getByRole('img', { name: /Fetches per day by version, last 30 days: 5 fetches/ });
    await canvas.waitFor(); // chart.js is a lazily loaded chunk
    const cells = await panel.getByTestId('usage-chart-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(cells.map((r) => r.slice(1))).toEqual([['2', '3', '5']]);
    await expectNoAxeViolations(page, 'prompt page with usage');
    await panel.scrollIntoViewIfNeeded();
    mkdirSync(SHOTS, { recursive: true });
    await panel.screenshot({ path: path.join(SHOTS, 'usage-panel.png') });
    toDocs('usage-panel');

    // A prompt nobody fetched shows the empty state.
    await page.goto(`${base}/admin/prompts/idle`);
    await page.getByTestId('usage-panel').getByTestId('usage-empty').waitFor();

    // The dashboard, reached from the nav.
    await page.getByTestId('nav-usage').click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const totals = page.getByTestId('usage-totals');
    await totals.getByTestId('usage-total-fetches').waitFor();
    expect(await totals.getByTestId('usage-total-fetches').textContent()).toBe('7');
    expect(await totals.getByTestId('usage-total-errors').textContent()).toContain('1');
    const keys = (testId: string) => page.getByTestId(`${testId}-row`).evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(await keys('usage-top-prompts')).toEqual(['greet', 'other']);
    expect(await keys('usage-failing')).toEqual(['other']);
    expect(await page.locator('[data-testid="usage-outcomes-row"][data-key="invalid_arguments"] td').textContent()).toBe('1');
    expect(await keys('usage-top-clients')).toEqual(['beta', 'alpha']);
    expect(await keys('usage-labels')).toContain('production');
    await page.locator('[data-testid="usage-unused-prompt"][data-name="idle"]').waitFor();
    expect(await page.getByTestId('usage-unused-prompt').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')))).toEqual(['idle']);
    await expectNoAxeViolations(page, 'usage dashboard');
    await shot(page, 'usage-dashboard', true);
    toDocs('usage-dashboard');
    // Chart colours keep 3:1 against the card (WCAG non-text contrast) in both themes; the dark one passes axe too.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const ratios = await chartContrast(page);
      expect(Object.values(ratios).every((r) => r >= 3), `${scheme}: ${JSON.stringify(ratios)}`).toBe(true);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page, 'usage dashboard (dark)');
    await shot(page, 'usage-dashboard-dark', true);
    await page.emulateMedia({ colorScheme: 'light' });

    // The CSV: fetched with the bearer header and saved as a blob; pressed from the keyboard.
    const csvRequests: { url: string; auth?: string }[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/usage.csv')) csvRequests.push({ url: r.url(), auth: r.headers().authorization });
    });
    await page.getByTestId('usage-csv').focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('promptd-usage-30d.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe('start,prompt,version,label,client,clientVersion,outcome,fetches');
    const rows = lines.slice(1).map((l) => l.split(',').slice(1).join(','));
    expect(rows).toContain('greet,1,production,alpha,1.0.0,ok,2');
    expect(rows).toContain('greet,2,production,beta,1.0.0,ok,3');
    expect(rows.some((r) => r.startsWith('other,') && r.endsWith(',alpha,1.0.0,invalid_arguments,1'))).toBe(true);
    expect(csvRequests.length).toBe(1);
    expect(csvRequests[0]!.auth).toBe('Bearer e2e-admin-token');
    expect(csvRequests[0]!.url).not.toContain('e2e-admin-token');
    expect(new URL(csvRequests[0]!.url).searchParams.get('bucket')).toBe('day');

    // The range: the last 24 hours hold the same fetches; the choice is in the URL.
    await page.getByLabel('Time range').selectOption('24h');
    await until(() => new URL(page.url()).searchParams.get('range') === '24h', 'the range in the URL');
    await waitForText(page.locator('h2'), 'Fetches per hour, last 24 hours');
    expect(await page.getByTestId('usage-total-fetches').textContent()).toBe('7');

    // The prompt list sorted by recent use: other (last fetched), greet, then idle (never).
    await page.getByTestId('nav-prompts').click();
    await page.getByTestId('prompt-sort').selectOption('lastUsed');
    const names = () => page.getByTestId('prompt-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    await until(async () => JSON.stringify(await names()) === JSON.stringify(['other', 'greet', 'idle']), 'the recently used order');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('lastUsed');
    const used = await page.getByTestId('row-last-used').allTextContents();
    expect(used.map((t) => t.replace(/^last used .+$/, 'last used …'))).toEqual(['last used …', 'last used …', 'never used']);
    await expectNoAxeViolations(page, 'prompt list by recent use');

    // 390 px: nothing scrolls sideways on the dashboard or the prompt page.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const where of ['/admin/usage', '/admin/prompts/greet']) {
      await page.goto(`${base}${where}`);
      // The chart (a lazily loaded chunk) and its hidden table are there before measuring.
      await page.locator(`[data-testid="${where.endsWith('usage') ? 'usage-overall-chart' : 'usage-chart'}"] canvas`).waitFor();
      const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 391).slice(0, 8).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`));
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${where}: ${wide.join(', ')}`).toBeLessThanOrEqual(390);
      await shot(page, `usage-narrow-${where.split('/').pop()}`, true);
      if (where.endsWith('greet')) await page.getByTestId('usage-panel').screenshot({ path: path.join(SHOTS, 'usage-panel-narrow.png') });
    }
    expect(errors).toEqual([]);
  });
});
