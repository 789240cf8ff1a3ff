// The Tokens page against a real server: create (the token shown once, with a copy
// button), the new token works and its use shows, revoke with confirmation, revoking
// the token in use warns and signs out; axe-core finds 0 violations on each state.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, confirm, shot, signIn, until } from './harness.js';
import { expectNoAxeViolations } from './axe.js';
import { skipE2E, useE2E } from './suite.js';

describe.skipIf(skipE2E)('admin UI: tokens', () => {
  const { setup } = useE2E();

  it('create with the token shown once, last use, revoke, field errors, revoking your own token', async () => {
    const { server, page, context, errors } = await setup();
    const base = server.url;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await signIn(page, base);
    await page.getByTestId('nav-tokens').click();
    await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
    await page.getByText('No tokens yet.').waitFor();
    await expectNoAxeViolations(page, 'tokens (empty)');

    await page.getByLabel('Name').fill('ci-bot');
    await page.getByTestId('token-create').click();
    const secret = await page.getByTestId('token-secret').inputValue();
    expect(secret).toMatch(/^pd_[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('token-secret-copy').click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const row = page.locator('[data-testid="token-row"][data-name="ci-bot"]');
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(0, 10));
    expect(await row.textContent()).not.toContain(secret);
    expect(await row.getByTestId('token-last-used').textContent()).toBe('never');
    await expectNoAxeViolations(page, 'tokens (secret shown)');
    await shot(page, 'tokens-created', true);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('token-secret').count()).toBe(0);

    // The token works; its use shows after a reload.
    const res = await fetch(`${base}/admin/v1/prompts`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    await until(async () => {
      await page.reload();
      await row.waitFor();
      return (await row.getByTestId('token-last-used').textContent()) !== 'never';
    }, 'last use to show');

    // A taken name is an error at the field.
    await page.getByLabel('Name').fill('ci-bot');
    await page.getByTestId('token-create').click();
    await page.locator('[data-error-for="name"]').waitFor();
    expect(await page.locator('[data-error-for="name"]').textContent()).toContain('already exists');
    await expectNoAxeViolations(page, 'tokens (field error)');

    // Revoke with confirmation; cancelling keeps it.
    await row.getByTestId('token-revoke').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await expectNoAxeViolations(page, 'tokens (revoke dialog)');
    await page.keyboard.press('Escape');
    expect(await row.getAttribute('data-revoked')).toBe('false');
    await confirm(page, row.getByTestId('token-revoke'));
    await until(async () => (await row.getAttribute('data-revoked')) === 'true', 'the row to show revoked');
    expect((await fetch(`${base}/admin/v1/prompts`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);

    // Sign in with a token of its own, then revoke it: the dialog warns, and the app signs out.
    await page.getByLabel('Name').fill('my browser');
    await page.getByTestId('token-create').click();
    const mine = await page.getByTestId('token-secret').inputValue();
    await page.getByTestId('sign-out').click();
    await page.getByLabel('Admin token').fill(mine);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('nav-tokens').click();
    const own = page.locator('[data-testid="token-row"][data-name="my browser"]');
    await own.getByText('this browser').waitFor();
    await own.getByTestId('token-revoke').click();
    const dialog = page.getByTestId('confirm-dialog');
    expect(await dialog.textContent()).toContain('signs you out');
    await dialog.getByTestId('confirm-ok').click();
    await page.getByLabel('Admin token').waitFor();
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('nav-tokens').click();
    await until(async () => (await own.getAttribute('data-revoked').catch(() => null)) === 'true', 'own token revoked');
    expect(errors).toEqual([]);
  });

  it('issue 37.14: the dialog warns when the token would be the first MCP token (anonymous /mcp ends)', async () => {
    const { server, page, errors } = await setup();
    await signIn(page, server.url);
    await page.getByTestId('nav-tokens').click();
    await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
    expect(await page.getByTestId('token-mcp-first-warning').count()).toBe(0);
    await page.getByTestId('token-kind-mcp').check();
    const warning = page.getByTestId('token-mcp-first-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('anonymous MCP access ends');
    await expectNoAxeViolations(page, 'tokens (first MCP token warning)');
    await page.getByLabel('Name').fill('first-mcp');
    await page.getByTestId('token-create').click();
    await page.getByTestId('token-secret').waitFor();
    await page.locator('[data-testid="token-row"][data-name="first-mcp"]').waitFor();
    // A second MCP token changes nothing: no warning.
    await until(async () => (await warning.count()) === 0, 'the warning to go');
    expect(await page.getByTestId('token-kind-mcp').isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });
});
