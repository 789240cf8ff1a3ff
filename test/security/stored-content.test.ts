// Stored resource content never runs as active content in the admin UI's origin, and no page
// of /admin keeps the admin token in localStorage (issue 24 item 2). Headless Chromium.
//
// The planted resources carry script that, wherever it runs, renames its document and, when it
// runs in the admin origin, writes a marker to the admin origin's localStorage and the opener.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_TOKEN, rest, signIn } from '../e2e/harness.js';
import { skipE2E, useE2E } from '../e2e/suite.js';

const PAYLOAD = "document.title='pwned';try{localStorage.setItem('pwned',location.href)}catch(e){}try{window.opener.__pwned=1}catch(e){}";
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" onload="${PAYLOAD}"><script>${PAYLOAD}</script><rect width="8" height="8"/></svg>`;
const HTML = `<!doctype html><title>x</title><img src="nope" onerror="${PAYLOAD}"><script>${PAYLOAD}</script>`;

interface Res { id: number; uri: string }

const pwned = (page: Page) => page.evaluate(() => ({ storage: localStorage.getItem('pwned'), opener: (window as unknown as { __pwned?: number }).__pwned ?? null }));

/** Every URL the resource panel hands the user: links, images, media. */
const panelUrls = (page: Page) =>
  page.getByTestId('resource-detail').evaluate((el) =>
    [...el.querySelectorAll<HTMLAnchorElement | HTMLImageElement | HTMLMediaElement>('a[href], img[src], audio[src], video[src], iframe[src], object[data], embed[src]')].map(
      (n) => (n as HTMLAnchorElement).href || (n as HTMLImageElement).src || n.getAttribute('data') || '',
    ),
  );

/** What a page-initiated "open in new tab" (target=_blank, middle click, window.open) of a same-origin URL shows. */
async function openFromPage(context: BrowserContext, page: Page, url: string): Promise<{ title: string; origin: string } | 'download'> {
  const shown = context.waitForEvent('page').then(async (p) => {
    try {
      await p.waitForLoadState('load');
      const seen = await p.evaluate(() => ({ title: document.title, origin: location.origin }));
      await p.close();
      return seen;
    } catch (err) {
      // Chromium turns a non-renderable blob into a download and closes the tab it opened for it.
      if (p.isClosed()) return 'download' as const;
      throw err;
    }
  });
  const saved = page.waitForEvent('download').then(() => 'download' as const);
  await page.evaluate((u) => void window.open(u, '_blank'), url);
  const got = await Promise.race([shown, saved]);
  shown.catch(() => {});
  saved.catch(() => {});
  return got;
}

/** What the browser's own "open image/link in new tab" shows (a browser-initiated navigation). */
async function openAsBrowser(context: BrowserContext, url: string): Promise<{ title: string; origin: string } | 'download'> {
  const p = await context.newPage();
  const download = p.waitForEvent('download').then(() => 'download' as const, () => null);
  const nav = await Promise.race([p.goto(url).then(() => 'loaded' as const, () => 'failed' as const), download]);
  if (nav === 'download') return (await p.close(), 'download');
  const seen = await p.evaluate(() => ({ title: document.title, origin: location.origin })).catch(() => null);
  await p.close();
  if (nav === 'failed' && !seen) return 'download';
  return seen ?? 'download';
}

describe.skipIf(skipE2E)('stored resource content in the admin UI', () => {
  const { setup } = useE2E();

  it('an SVG with onload/<script> and an HTML page never run in the admin origin, however they are opened', async () => {
    const { server, page, context } = await setup();
    const base = server.url;
    const adminOrigin = new URL(base).origin;
    const svg = await rest<Res>(base, 'POST', '/resources', { uri: 'files://evil.svg', name: 'Evil', mimeType: 'image/svg+xml', blob: Buffer.from(SVG).toString('base64') });
    const svgText = await rest<Res>(base, 'POST', '/resources', { uri: 'files://evil-text.svg', name: 'Evil text', mimeType: 'image/svg+xml', text: SVG });
    const html = await rest<Res>(base, 'POST', '/resources', { uri: 'files://evil.html', name: 'Evil page', mimeType: 'text/html', text: HTML });

    await signIn(page, base);
    await page.getByTestId('nav-resources').click();
    for (const r of [svg, svgText, html]) {
      await page.getByRole('button', { name: `Open ${r.uri}` }).click();
      const detail = page.getByTestId('resource-detail');
      await detail.getByTestId('resource-meta').waitFor();
      if (r === svg) {
        // Shown as an image that loaded (an <img> never runs SVG script).
        const img = detail.locator('img');
        await img.waitFor();
        await page.waitForFunction(() => (document.querySelector('[data-testid="resource-detail"] img') as HTMLImageElement | null)?.complete === true);
      }

      // Download: a file to save, never a page.
      const [dl] = await Promise.all([page.waitForEvent('download'), detail.getByTestId('resource-download').click()]);
      expect(dl.suggestedFilename()).toBe(r.uri.split('/').pop());

      const urls = await panelUrls(page);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        // Never a same-origin document typed as active content.
        if (url.startsWith('blob:')) expect(await page.evaluate(async (u) => (await (await fetch(u)).blob()).type, url), url).toBe('application/octet-stream');
        // (Chromium refuses page-initiated top-level data: navigations, so only blob: is tried from the page.)
        if (url.startsWith('blob:')) {
          const fromPage = await openFromPage(context, page, url);
          if (fromPage !== 'download') expect(fromPage.title, `window.open(${url.slice(0, 40)}…)`).not.toBe('pwned');
        }
        const asBrowser = await openAsBrowser(context, url);
        // A data: image opened by the browser itself is an opaque origin: it can touch nothing of /admin.
        if (asBrowser !== 'download') expect(asBrowser.origin, `new tab ${url.slice(0, 40)}…`).not.toBe(adminOrigin);
      }
      expect(await pwned(page)).toEqual({ storage: null, opener: null });
      await page.getByRole('button', { name: `Close ${r.uri}` }).click();
    }
    expect(page.url().startsWith(`${base}/admin/`)).toBe(true);
    expect(await page.title()).not.toBe('pwned');
  });

  it('the admin UI and the API docs page keep no token in localStorage (no persisted Swagger authorization); UI files are nosniff', async () => {
    const { server, page } = await setup();
    const base = server.url;
    const html = await (await fetch(`${base}/admin/v1/docs`)).text();
    expect(html).not.toMatch(/persistAuthorization:\s*true/);
    for (const route of ['/admin/', '/admin/resources', '/admin/v1/docs/assets/swagger-ui-bundle.js']) {
      expect((await fetch(`${base}${route}`)).headers.get('x-content-type-options'), route).toBe('nosniff');
    }

    await signIn(page, base);
    const stored = () => page.evaluate(() => Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`).join('\n'));
    expect(await stored()).not.toContain(ADMIN_TOKEN);

    // Authorize in Swagger UI exactly as a user would.
    await page.goto(`${base}/admin/v1/docs`);
    await page.locator('button.authorize').click();
    const modal = page.locator('.modal-ux');
    await modal.locator('#auth-bearer-value').fill(ADMIN_TOKEN);
    await modal.locator('button.authorize').click();
    await modal.getByRole('button', { name: /logout|remove authorization/i }).waitFor();
    await modal.locator('button.btn-done').click();
    expect(await stored()).not.toContain(ADMIN_TOKEN);
    expect(await page.evaluate(() => localStorage.getItem('authorized'))).toBeNull();
  });
});
