// Issue #17 (contracts) in the admin UI against a real server: typed arguments in the
// editor (type select, default), the typed preview form (number inputs, yes/no select,
// defaults pre-filled), include autocompletion (`{{>` offers prompt names, then `@`
// labels), the include message (prompt combobox, argument mapping) rendered by the server.
// At 390px nothing scrolls sideways. axe-core: 0 violations on every view.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, shot, signIn, waitForText } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

const focusedTestId = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);

interface VersionOut {
  version: number;
  arguments: { name: string; type?: string; default?: unknown }[];
  messages: { role: string; content: { type: string; text?: string; prompt?: string; arguments?: Record<string, string> } }[];
}

describe.skipIf(skipE2E)('admin UI: contracts (typed arguments, includes)', () => {
  const { setup } = useE2E();

  it('typed arguments and preview; {{> autocompletion; include message rendered by the server', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', {
      name: 'tone',
      arguments: [{ name: 'style', required: true }],
      messages: [{ role: 'user', content: { type: 'text', text: 'Be {{style}}.' } }],
      activate: true,
    });
    await rest(base, 'POST', '/prompts', { name: 'sig', messages: [{ role: 'user', content: { type: 'text', text: '-- the team' } }], activate: true });
    await rest(base, 'POST', '/prompts', {
      name: 'greet',
      arguments: [
        { name: 'count', type: 'integer', default: 2 },
        { name: 'loud', type: 'boolean', default: false },
      ],
      messages: [{ role: 'user', content: { type: 'text', text: 'Hi x{{count}}{{#loud}}!{{/loud}}' } }],
      activate: true,
    });

    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/greet/edit`);
    await page.getByTestId('msg-text-0').waitFor();

    // The stored type and default come back into the arguments table.
    expect(await page.getByTestId('arg-type-0').inputValue()).toBe('integer');
    expect(await page.getByTestId('arg-default-0').inputValue()).toBe('2');
    expect(await page.getByTestId('arg-type-1').inputValue()).toBe('boolean');
    expect(await page.getByTestId('arg-default-1').inputValue()).toBe('false');
    expect(await page.getByTestId('arg-type-0').getAttribute('id')).toBe(await page.getByLabel('Type', { exact: true }).first().getAttribute('id'));

    // The preview form is typed, with the defaults filled in; a false boolean skips its section.
    const count = page.getByTestId('preview-arg-count');
    expect(await count.getAttribute('type')).toBe('number');
    expect(await count.inputValue()).toBe('2');
    expect(await page.getByTestId('preview-arg-loud').evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await page.getByTestId('preview-arg-loud').inputValue()).toBe('false');
    const output = page.getByTestId('editor-preview').getByTestId('preview-output');
    await waitForText(output, 'Hi x2');
    expect(await output.textContent()).not.toContain('!');
    await page.getByTestId('preview-arg-loud').selectOption('true');
    await waitForText(output, 'Hi x2!');
    await count.fill('5');
    await waitForText(output, 'Hi x5!');

    // A default that does not fit its type is flagged next to the field before saving.
    await page.getByTestId('arg-add').click();
    await page.getByTestId('arg-name-2').fill('ratio');
    await page.getByTestId('arg-type-2').selectOption('number');
    await page.getByTestId('arg-default-2').fill('abc');
    await waitForText(page.locator('[data-warning-for="arguments[2].default"]'), 'must be a number');
    await page.getByTestId('arg-default-2').fill('0.5');
    await page.locator('[data-warning-for="arguments[2].default"]').waitFor({ state: 'detached' });
    await page.getByTestId('arg-required-2').check();
    await page.getByTestId('arg-remove-2').click();

    // `{{>` in a template offers prompt names (keyboard: arrows, Enter), then `@` offers labels.
    const tpl = page.getByTestId('msg-text-0');
    await tpl.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' {{> si');
    const suggest = page.getByTestId('include-suggest');
    await suggest.locator('[role="option"][data-value="sig"]').waitFor();
    expect(await tpl.getAttribute('aria-controls')).toBe(await suggest.getAttribute('id'));
    expect(await tpl.getAttribute('aria-activedescendant')).toBe(await suggest.locator('[role="option"]').first().getAttribute('id'));
    await expectNoAxeViolations(page, 'editor with include suggestions');
    await page.keyboard.press('Enter');
    await expect.poll(() => tpl.inputValue(), { timeout: 10_000 }).toBe('Hi x{{count}}{{#loud}}!{{/loud}} {{> sig}}');
    await suggest.waitFor({ state: 'detached' });
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('msg-text-0');
    await page.keyboard.type('@');
    await suggest.locator('[role="option"][data-value="production"]').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => tpl.inputValue(), { timeout: 10_000 }).toBe('Hi x{{count}}{{#loud}}!{{/loud}} {{> sig@production}}');
    // Escape closes the list without changing the text.
    await page.keyboard.type(' {{> ');
    await suggest.waitFor();
    await page.keyboard.press('Escape');
    await suggest.waitFor({ state: 'detached' });
    await tpl.fill('Hi x{{count}}{{#loud}}!{{/loud}} {{> sig@production}}');

    // The include message: the prompt from a combobox, then one field per argument of the included prompt.
    await page.getByTestId('msg-add').click();
    await page.getByTestId('msg-type-1').selectOption('include');
    const combo = page.getByTestId('include-prompt-1');
    await combo.click();
    await page.keyboard.type('to');
    await page.getByTestId('include-prompt-options').locator('[data-value="tone"]').waitFor();
    expect(await combo.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => combo.inputValue(), { timeout: 10_000 }).toBe('tone');
    await expect.poll(() => combo.getAttribute('aria-expanded'), { timeout: 10_000 }).toBe('false');
    const styleArg = page.getByTestId('include-arg-1-style');
    await styleArg.fill('calm x{{count}}');
    // An include in a template parses: no warning, and both arguments count as used.
    expect(await page.locator('[data-warning-for="messages[0].content.text"]').count()).toBe(0);
    expect(await page.getByTestId('arg-row').filter({ hasText: 'not used by any message' }).count()).toBe(0);
    // The draft preview says the server renders the include.
    await waitForText(output, 'Includes the messages of tone');
    await expectNoAxeViolations(page, 'editor with an include message');
    await shot(page, 'contracts-editor', true);

    // The server's 422 on an include lands next to its field, and the summary names it in words.
    await combo.fill('nope');
    await page.getByTestId('editor-save').click();
    await waitForText(page.locator('[data-error-for="messages[1].content.prompt"]'), 'nope');
    await waitForText(page.getByTestId('error-summary'), 'Message 2 included prompt');
    await combo.fill('tone');
    await expect.poll(() => styleArg.inputValue(), { timeout: 10_000 }).toBe('calm x{{count}}');

    await page.getByTestId('editor-save').click();
    await page.waitForURL(/\/admin\/prompts\/greet\?version=2$/);
    await page.locator('[data-testid="version-view"][data-version="2"]').waitFor();
    await waitForText(page.getByTestId('version-message-include'), 'Includes tone');
    await waitForText(page.locator('[data-testid="version-argument"][data-name="count"] [data-testid="version-argument-type"]'), 'integer = 2');

    // Stored as sent: types, defaults, the template include and the include message.
    const v2 = await rest<VersionOut>(base, 'GET', '/prompts/greet/versions/2');
    expect(v2.arguments.map((a) => [a.name, a.type, a.default])).toEqual([['count', 'integer', 2], ['loud', 'boolean', false]]);
    expect(v2.messages[0]!.content.text).toBe('Hi x{{count}}{{#loud}}!{{/loud}} {{> sig@production}}');
    expect(v2.messages[1]!.content).toMatchObject({ type: 'include', prompt: 'tone', arguments: { style: 'calm x{{count}}' } });

    // The server preview of v2 renders both includes (typed preview form here too).
    const serverOut = page.locator('.prompt-grid').getByTestId('preview-output');
    await page.locator('.prompt-grid [data-testid="preview-arg-count"]').fill('3');
    await waitForText(serverOut, 'Be calm x3.').catch(async (e) => {
      throw new Error(`${(e as Error).message}; preview card: ${await page.locator('.prompt-grid .preview').first().textContent()}`);
    });
    expect(await serverOut.textContent()).toContain('Hi x3! -- the team');
    await expectNoAxeViolations(page, 'prompt page with an include');
    expect(errors).toEqual([]);
  });

  it('at 390px: the editor with an include and a test case, and the checks, do not scroll sideways', async () => {
    const { server, page, errors } = await setup(390, 844);
    const base = server.url;
    await rest(base, 'POST', '/prompts', { name: 'part', messages: [{ role: 'user', content: { type: 'text', text: 'Part' } }], activate: true });
    await rest(base, 'POST', '/prompts', {
      name: 'whole',
      arguments: [{ name: 'n', type: 'number', default: 1.5 }],
      messages: [{ role: 'user', content: { type: 'text', text: 'N={{n}} {{> part}}' } }, { role: 'user', content: { type: 'include', prompt: 'part' } }],
      tests: [{ name: 'a rather long test case name that has to wrap somewhere', arguments: { n: '2' }, expect: [{ contains: 'N=2' }, { matches: '^N=\\d+ Part' }] }],
    });
    const sideways = () =>
      page.evaluate(() => {
        const w = document.documentElement.clientWidth;
        const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => {
          if (el.closest('.diff-scroll, .sr-only, .table-scroll')) return false;
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.right > w + 1 || r.left < -1) && getComputedStyle(el).position !== 'fixed';
        });
        return { scroll: document.documentElement.scrollWidth - w, wide: wide.slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`) };
      });
    await signIn(page, base);
    await page.goto(`${base}/admin/prompts/whole/edit`);
    await page.getByTestId('test-name-0').waitFor();
    await page.getByTestId('include-prompt-1').waitFor();
    expect(await page.getByTestId('test-name-0').inputValue()).toBe('a rather long test case name that has to wrap somewhere');
    expect(await page.getByTestId('expect-kind-0-1').inputValue()).toBe('matches');
    expect(await sideways()).toEqual({ scroll: 0, wide: [] });
    await page.goto(`${base}/admin/prompts/whole`);
    await page.locator('[data-testid="check-results"][data-state="passed"]').waitFor();
    await page.locator('[data-testid="include-link"][data-prompt="part"]').waitFor();
    expect(await sideways()).toEqual({ scroll: 0, wide: [] });
    await expectNoAxeViolations(page, 'prompt page with passing checks at 390px');
    await shot(page, 'narrow-contracts-checks', true);
    expect(errors).toEqual([]);
  });
});
