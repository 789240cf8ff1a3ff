// The Activity page and the prompt page's history panel against a real server: changes
// made by a named token show who did them; filters by who, what and prompt; paging;
// axe-core finds 0 violations.
import { describe, expect, it } from 'vitest';
import { rest, shot, signIn, until } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI: activity', () => {
  const { setup } = useE2E();

  it('global log with filters by who and what, per-prompt history', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    const bot = await rest<{ id: number; token: string }>(base, 'POST', '/tokens', { name: 'release-bot' });
    const asBot = async (method: string, route: string, body?: unknown) => {
      const res = await fetch(`${base}/admin/v1${route}`, { method, headers: { authorization: `Bearer ${bot.token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      expect(res.ok, `${method} ${route}`).toBe(true);
    };
    const msg = (text: string) => ({ arguments: [], messages: [{ role: 'user', content: { type: 'text', text } }] });
    await rest(base, 'POST', '/prompts', { name: 'greet', ...msg('Hello'), activate: true });
    await asBot('POST', '/prompts/greet/versions', msg('Hi'));
    await asBot('PUT', '/prompts/greet/active', { version: 2 });
    await asBot('PUT', '/prompts/greet/active', { version: 1 });
    await asBot('PUT', '/prompts/greet/labels/staging', { version: 2 });
    await rest(base, 'POST', '/prompts', { name: 'other', ...msg('x') });
    await asBot('PATCH', '/prompts/other', { name: 'renamed' });
    await asBot('PATCH', '/prompts/renamed', { archived: true });
    await asBot('DELETE', '/prompts/renamed');

    await signIn(page, base);
    await page.getByTestId('nav-activity').click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const rows = page.getByTestId('activity-row');
    await rows.first().waitFor();
    const whats = async () => (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))));
    expect(await whats()).toEqual([
      'prompt.deleted', 'prompt.archived', 'prompt.renamed', 'prompt.created', 'label.set', 'prompt.rolled_back', 'prompt.activated', 'version.created',
      'prompt.activated', 'prompt.created', 'token.created',
    ]);
    const rollback = page.locator('[data-testid="activity-row"][data-action="prompt.rolled_back"]');
    expect(await rollback.textContent()).toContain('release-bot (token #');
    expect(await rollback.textContent()).toContain('rolled back from v2 to v1');
    expect(await page.locator('[data-testid="activity-row"][data-action="label.set"]').textContent()).toContain('moved label staging to v2');
    expect(await page.locator('[data-testid="activity-row"][data-action="prompt.renamed"]').textContent()).toContain('renamed from other to renamed');
    await expectNoAxeViolations(page, 'activity');
    await shot(page, 'activity', true);

    // Who: the bot only; the filter is in the URL.
    await page.getByLabel('Who').fill(`token:release-bot#${bot.id}`);
    await page.getByTestId('activity-apply').click();
    await until(async () => (await whats()).length === 7, 'the bot\u2019s 7 events');
    expect(new URL(page.url()).searchParams.get('actor')).toBe(`token:release-bot#${bot.id}`);
    // What: label moves.
    await page.getByLabel('What').selectOption('label.*');
    await until(async () => JSON.stringify(await whats()) === JSON.stringify(['label.set']), 'label moves only');
    await expectNoAxeViolations(page, 'activity (filtered)');
    await page.getByRole('button', { name: 'Clear' }).click();
    await until(async () => (await whats()).length === 11, 'everything again');
    // Keyboard: the filters are reachable and apply with Enter.
    await page.getByLabel('Prompt', { exact: true }).focus();
    await page.keyboard.type('greet');
    await page.keyboard.press('Enter');
    await until(async () => (await whats()).length === 6, 'greet\u2019s events');

    // Per-prompt history on the prompt page.
    await page.goto(`${base}/admin/prompts/greet`);
    const history = page.getByTestId('prompt-history');
    await history.getByTestId('activity-row').first().waitFor();
    const historyWhats = async () => history.getByTestId('activity-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    expect(await historyWhats()).toEqual(['label.set', 'prompt.rolled_back', 'prompt.activated', 'version.created', 'prompt.activated', 'prompt.created']);
    await history.getByLabel('Show').selectOption('prompt.rolled_back');
    await until(async () => JSON.stringify(await historyWhats()) === JSON.stringify(['prompt.rolled_back']), 'rollbacks only');
    await expectNoAxeViolations(page, 'prompt page with history');
    // A change made elsewhere appears live.
    await history.getByLabel('Show').selectOption('');
    await asBot('PATCH', '/prompts/greet', { archived: true });
    await until(async () => (await historyWhats())[0] === 'prompt.archived', 'the archive to appear live');
    expect(errors).toEqual([]);
  });

  it('pages older entries', async () => {
    const { server, page } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'many', arguments: [], messages: [{ role: 'user', content: { type: 'text', text: 'v1' } }] });
    for (let i = 2; i <= 24; i++) await rest(base, 'POST', '/prompts/many/versions', { arguments: [], messages: [{ role: 'user', content: { type: 'text', text: `v${i}` } }] });
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/many`);
    const history = page.getByTestId('prompt-history');
    await history.getByTestId('activity-row').first().waitFor();
    expect(await history.getByTestId('activity-row').count()).toBe(20);
    await history.getByTestId('activity-older').click();
    await until(async () => (await history.getByTestId('activity-row').count()) === 24, 'all 24 entries');
    expect(await history.getByTestId('activity-older').count()).toBe(0);
    expect(await history.getByTestId('activity-row').last().textContent()).toContain('created the prompt');
  });
});
