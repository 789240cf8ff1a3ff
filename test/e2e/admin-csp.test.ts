// The admin UI under its Content-Security-Policy (src/http/security-headers.ts), in
// Chromium: every page, the API docs page (Swagger UI) included, works with no
// `securitypolicyviolation` event and no CSP console message; a planted inline script
// is blocked, which proves the policy is in force.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rest, signIn } from './harness.js';
import { skipE2E, useE2E } from './suite.js';
import { PNG_BASE64 } from '../mcp/helpers.js';

async function watchCsp(page: Page): Promise<{ violations: () => Promise<string[]>; console: string[] }> {
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) console.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { console, violations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp) };
}

describe.skipIf(skipE2E)('admin UI under its Content-Security-Policy', () => {
  const { setup } = useE2E();

  it('every page and the API docs page run without a CSP violation; an inline script is blocked', async () => {
    const { server, page, errors } = await setup();
    const base = server.url;
    const csp = await watchCsp(page);
    await rest(base, 'POST', '/resources', { uri: 'img://dot', name: 'Dot', mimeType: 'image/png', blob: PNG_BASE64 });
    await rest(base, 'POST', '/prompts', { name: 'csp-prompt', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: { type: 'text', text: 'Hi {{who}}' } }], activate: true });
    await signIn(page, base);
    const seen: string[] = [];
    for (const [path, ready] of [
      ['/admin/prompts/csp-prompt', 'csp-prompt'],
      ['/admin/prompts/csp-prompt/edit', 'csp-prompt'],
      ['/admin/resources', 'Dot'],
      ['/admin/connect', 'Connect'],
      ['/admin/labels', 'Labels'],
      ['/admin/activity', 'Activity'],
      ['/admin/tokens', 'tokens'],
    ] as const) {
      await page.goto(`${base}${path}`);
      await page.getByText(ready, { exact: false }).first().waitFor();
      seen.push(...(await csp.violations()).map((v) => `${path}: ${v}`));
    }
    // The resource image (a data: URL) renders.
    await page.goto(`${base}/admin/resources`);
    await page.getByRole('button', { name: 'Open img://dot' }).click();
    await page.locator('[data-testid="resource-image"]').waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="resource-image"]') as HTMLImageElement | null)?.naturalWidth === 1);
    seen.push(...(await csp.violations()).map((v) => `resource image: ${v}`));

    // Swagger UI: its start-up script is a file now, not inline.
    await page.goto(`${base}/admin/v1/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
    seen.push(...(await csp.violations()).map((v) => `docs: ${v}`));
    expect(seen).toEqual([]);
    expect(csp.console).toEqual([]);
    expect(errors).toEqual([]);

    // The policy is in force: a script element with inline code does not run, and is reported.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.appendChild(s);
    });
    await page.waitForFunction(() => (window as unknown as { __csp: string[] }).__csp.length > 0);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    expect((await csp.violations())[0]).toMatch(/^script-src/);
  });
});
