// A 1–2-character search that no index serves reads a bounded number of prompts per
// request (lowered to 10 here): when a stretch holds too few matches the list says how
// far the search got and "Keep searching" continues it, until the last stretch; axe-core 0.
import { describe, expect, it } from 'vitest';
import { rest, signIn, until } from './harness.js';
import { skipE2E, useE2E } from './suite.js';
import { expectNoAxeViolations } from './axe.js';

describe.skipIf(skipE2E)('admin UI: a short search that stops and keeps searching', () => {
  const { setup } = useE2E();

  it('says where the search stopped and continues it on request', async () => {
    const { server, page, errors } = await setup(1280, 900, { searchScanLimit: 10 });
    const base = server.url;
    // 25 prompts; p-03 and p-21 say "zq".
    const files = Array.from({ length: 25 }, (_, i) => ({
      path: `.claude/commands/p-${String(i).padStart(2, '0')}.md`,
      text: `plain words${i === 3 || i === 21 ? ' zq' : ''}\n`,
    }));
    await rest(base, 'POST', '/import?format=claude-commands', { files });
    const names = async () => page.getByTestId('prompt-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));
    const notice = page.getByTestId('search-incomplete');

    await signIn(page, base);
    await page.getByTestId('prompt-search').fill('zq');
    await until(async () => (await notice.isVisible()) && (await names()).join() === 'p-03', 'the first stretch');
    expect(await notice.textContent()).toContain('stopped after p-09');
    expect(await page.getByRole('status').filter({ hasText: 'stopped' }).textContent()).toBe('1 match on this page; the search stopped after p-09');
    await expectNoAxeViolations(page, 'an incomplete search');

    // The second stretch (p-10…p-19) holds no match: no "No prompts match", but the notice.
    await page.getByTestId('keep-searching').click();
    await until(async () => ((await notice.textContent()) ?? '').includes('p-19'), 'the second stretch');
    expect(await names()).toEqual([]);
    expect(await notice.textContent()).toContain('No matches yet');
    expect(await page.getByText('No prompts match.').count()).toBe(0);

    // The last stretch (p-20…p-24) is the end: no notice, no button.
    await page.getByTestId('keep-searching').click();
    await until(async () => (await names()).join() === 'p-21', 'the last stretch');
    await until(async () => !(await notice.isVisible()), 'the notice gone');
    expect(await page.getByTestId('keep-searching').count()).toBe(0);

    // A search of 3+ characters is served by the index: complete at once.
    await page.getByTestId('prompt-search').fill('s zq');
    await until(async () => (await names()).join() === 'p-03,p-21', 'an indexed search');
    expect(await notice.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
