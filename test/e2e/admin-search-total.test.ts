// A search matching more than 1,000 prompts: the server stops counting there
// (totalIsLowerBound) and the list says "1,000+" and "page 1 of 20+"; a narrower search
// has its exact total again.
import { describe, expect, it } from 'vitest';
import { rest, signIn, until } from './harness.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI: a search total that is a lower bound', () => {
  const { setup } = useE2E();

  it('shows 1,000+ for a frequent search and an exact total for a rare one', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    const files = Array.from({ length: 1005 }, (_, i) => ({
      path: `.claude/commands/p-${String(i).padStart(4, '0')}.md`,
      text: `common words${i % 250 === 3 ? ' and a rarity' : ''}\n`,
    }));
    await rest(base, 'POST', '/import?format=claude-commands', { files });

    await signIn(page, base);
    await page.getByTestId('prompt-search').fill('common');
    await until(async () => ((await page.getByTestId('prompt-total').textContent()) ?? '').includes('+'), 'a lower-bound total');
    expect(await page.getByTestId('prompt-total').textContent()).toBe('1,000+');
    expect(await page.getByTestId('page-status').textContent()).toMatch(/Page 1 of 20\+ · 1,000\+ prompts/);
    expect(await page.getByRole('status').filter({ hasText: 'match' }).textContent()).toContain('more than 1,000 prompts match');

    await page.getByTestId('prompt-search').fill('rarity');
    await until(async () => (await page.getByTestId('prompt-total').textContent()) === '5', 'the exact total');
    expect(await page.getByTestId('page-status').textContent()).toMatch(/Page 1 of 1 · 5 prompts/);
    expect(errors).toEqual([]);
  });
});
