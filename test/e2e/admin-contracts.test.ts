// Issue #17 (contracts) in the admin UI against a real server: typed arguments in the
// editor (type select, default), the typed preview form (number inputs, yes/no select,
// defaults pre-filled), include autocompletion (`{{>` offers prompt names, then `@`
// labels), the include message (prompt combobox, argument mapping) rendered by the server.
// axe-core: 0 violations on every view.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { confirm, rest, shot, signIn, waitForText } from './harness.js';
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

  it('test cases in the editor; checks after saving; Includes / Used by links; a refused production move forced by an admin; promote impact', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    await rest(base, 'POST', '/prompts', {
      name: 'base',
      arguments: [{ name: 'who' }],
      messages: [{ role: 'user', content: { type: 'text', text: 'Base {{who}}' } }],
      activate: true,
    });
    await rest(base, 'POST', '/prompts', {
      name: 'wrap',
      messages: [{ role: 'user', content: { type: 'include', prompt: 'base', arguments: { who: 'Wrap' } } }],
      activate: true,
    });

    await signIn(page, base);
    // Links both ways: wrap includes base, base is used by wrap.
    await page.goto(`${base}/admin/prompts/wrap`);
    await page.locator('[data-testid="include-link"][data-prompt="base"]').waitFor();
    await expectNoAxeViolations(page, 'prompt page with Includes');
    await page.locator('[data-testid="include-link"][data-prompt="base"] a').click();
    await page.waitForURL(/\/admin\/prompts\/base\?version=1$/);
    await page.locator('[data-testid="dependent-link"][data-prompt="wrap"]').waitFor();
    await page.getByTestId('includes-none').waitFor();

    // The test-case panel: add a case (focus goes to its name), its argument and two checks.
    await page.goto(`${base}/admin/prompts/base/edit`);
    await page.getByTestId('test-none').waitFor();
    await page.getByTestId('test-add').click();
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('test-name-0');
    await page.getByTestId('test-name-0').fill('mentions who');
    await page.getByTestId('test-arg-0-who').fill('Ann');
    await page.getByTestId('expect-value-0-0').fill('Ann');
    await page.getByTestId('expect-add-0').click();
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('expect-value-0-1');
    await page.getByTestId('expect-kind-0-1').selectOption('maxChars');
    await page.getByTestId('expect-value-0-1').fill('x');
    await waitForText(page.locator('[data-warning-for="tests[0].expect[1].maxChars"]'), 'whole number');
    await page.getByTestId('expect-value-0-1').fill('5');
    await page.getByTestId('test-add').click();
    await page.getByTestId('test-remove-1').click();
    await expect.poll(() => focusedTestId(page), { timeout: 10_000 }).toBe('test-remove-0');
    await expectNoAxeViolations(page, 'editor with a test case');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page, 'editor with a test case (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('editor-save').click();

    // After saving, the checks run next to the preview: the maxChars check fails, the output shows on demand.
    await page.waitForURL(/\/admin\/prompts\/base\?version=2$/);
    const checks = page.locator('[data-testid="check-results"][data-version="2"]');
    await checks.and(page.locator('[data-state="failed"]')).waitFor();
    const kase = checks.locator('[data-testid="check-case"][data-name="mentions who"]');
    expect(await kase.getAttribute('data-passed')).toBe('false');
    await waitForText(kase.getByTestId('check-failure'), 'at most 5 characters');
    expect(await kase.getByTestId('check-failure').count()).toBe(1);
    expect(await kase.getByTestId('check-output').isVisible()).toBe(false);
    await kase.getByTestId('check-output-toggle').click();
    await waitForText(kase.getByTestId('check-output'), 'Base Ann');
    // The version view lists the test case; the diff against v1 shows it added.
    await waitForText(page.locator('[data-testid="version-test"][data-name="mentions who"]'), 'maxChars 5');
    await waitForText(page.locator('[data-testid="diff-row"][data-kind="add"]'), 'mentions who');
    await expectNoAxeViolations(page, 'prompt page with failing checks');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page, 'prompt page with failing checks (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, 'contracts-checks', true);
    const v2 = await rest<{ tests: unknown[] }>(base, 'GET', '/prompts/base/versions/2');
    expect(v2.tests).toEqual([{ name: 'mentions who', arguments: { who: 'Ann' }, expect: [{ contains: 'Ann' }, { maxChars: 5 }] }]);

    // The editor starts from v2 with its test case.
    await page.goto(`${base}/admin/prompts/base/edit`);
    await expect.poll(() => page.getByTestId('test-name-0').inputValue(), { timeout: 10_000 }).toBe('mentions who');
    // Its "Saved v2 (server)" preview shows the same checks.
    await page.getByTestId('preview-mode-server').check();
    await page.locator('[data-testid="editor-preview"] [data-testid="check-results"][data-version="2"][data-state="failed"]').waitFor();
    await expectNoAxeViolations(page, 'editor with the saved version\'s checks');
    await page.goto(`${base}/admin/prompts/base`);

    // Moving production onto v2 is refused (409) with the failures; the admin moves it anyway after confirming.
    await page.locator('[data-testid="version-row"][data-version="2"]').getByTestId('version-labels').click();
    const dialog = page.getByTestId('label-dialog');
    await dialog.getByTestId('label-set').and(page.locator(':not([disabled])')).waitFor();
    await dialog.getByTestId('label-input').fill('production');
    await page.keyboard.press('Enter');
    const refusal = dialog.getByTestId('check-refusal');
    await waitForText(refusal.getByTestId('refusal-failure'), 'mentions who');
    await expectNoAxeViolations(page, 'label dialog with a refused move');
    expect((await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version).toBe(1);
    await refusal.getByTestId('force-move').click();
    await dialog.getByTestId('force-warning').waitFor();
    await refusal.getByTestId('force-move').click();
    await waitForText(dialog.getByTestId('label-status'), 'Forced');
    // The move changes wrap too (it includes base): the dialog says so.
    await waitForText(dialog.getByTestId('label-status'), 'Impact:');
    expect(await dialog.getByTestId('label-status').textContent()).toContain('1 production prompt');
    await expect.poll(async () => (await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version, { timeout: 10_000 }).toBe(2);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Promote dry run: moving base's production changes wrap too (it includes base), and the page says so.
    await rest(base, 'PUT', '/prompts/base/labels/staging', { version: 1 });
    await page.goto(`${base}/admin/labels`);
    await page.getByTestId('promote-preview').click();
    await page.locator('[data-testid="promote-change"][data-prompt="base"]').waitFor();
    await page.locator('[data-testid="promote-impact"] [data-testid="impact-dependent"][data-prompt="wrap"]').waitFor();
    await expectNoAxeViolations(page, 'promote dry run with impact');
    // v1 has no test cases: the promotion passes its checks.
    await confirm(page, page.getByTestId('promote-confirm'));
    await page.getByTestId('promote-done').waitFor();
    expect((await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version).toBe(1);

    // Activating v2 (moves production) is refused the same way on the prompt page; forcing it serves v2.
    await page.goto(`${base}/admin/prompts/base`);
    await confirm(page, page.locator('[data-testid="version-row"][data-version="2"]').getByTestId('version-activate'));
    const pageRefusal = page.getByTestId('check-refusal');
    await waitForText(pageRefusal.getByTestId('refusal-failure'), 'mentions who');
    await expectNoAxeViolations(page, 'prompt page with a refused activation');
    await pageRefusal.getByTestId('force-move').click();
    await pageRefusal.getByTestId('force-warning').waitFor();
    await pageRefusal.getByTestId('force-move').click();
    await waitForText(page.getByTestId('flash'), 'Now serving v2 (forced');
    expect((await rest<{ items: { label: string; version: number }[] }>(base, 'GET', '/prompts/base/labels')).items.find((l) => l.label === 'production')?.version).toBe(2);
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
