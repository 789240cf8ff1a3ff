// Shared pieces of the admin UI end-to-end tests: server, browser, REST calls, screenshots, waiting.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { createLogger } from '../../src/logger.js';
import { startServer, type ServerOptions } from '../../src/server.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
export const ADMIN_TOKEN = 'e2e-admin-token';
const CHROMIUM = '/usr/bin/chromium';

/** Builds admin/dist when it is missing (npm test builds it first; a lone vitest run may not have). */
export function ensureAdminBuilt(): void {
  if (existsSync(path.join(ROOT, 'admin', 'dist', 'index.html'))) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-admin.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (never download a browser)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

export interface Running { url: string; close(): Promise<void> }

/** A server on its own temp SQLite file and a random port. */
export async function startTestServer(extra: Partial<ServerOptions> = {}): Promise<Running> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'promptd-e2e-'));
  return startServer({
    databaseUrl: `file:${path.join(dir, 'e2e.db')}`,
    host: '127.0.0.1',
    port: 0,
    adminToken: ADMIN_TOKEN,
    seed: false,
    logger: createLogger(process.env.E2E_LOG_LEVEL ?? 'silent'),
    ...extra,
  });
}

/** A REST call as "another client". */
export async function rest<T = unknown>(base: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/admin/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export async function newPage(browser: Browser, width = 1280, height = 900): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

export async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/admin/`);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor();
  await page.locator('[data-testid="live-status"][data-status="open"]').waitFor();
}

export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // Sticky header / save bar / preview would be painted mid-page in a full-page capture.
  const unstick = fullPage ? await page.addStyleTag({ content: '.app-header, .save-bar, .preview-card { position: static !important; }' }) : null;
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
  await unstick?.evaluate((el) => (el as Element).remove());
}

/** Waits until `locator` contains `text`; fails with what it does contain. */
export async function waitForText(locator: Locator, text: string, timeout = 15_000): Promise<void> {
  try {
    await locator.filter({ hasText: text }).first().waitFor({ timeout });
  } catch {
    const got = await locator.allTextContents().catch(() => []);
    throw new Error(`timed out waiting for ${JSON.stringify(text)}; found ${JSON.stringify(got)}`);
  }
}

export async function until(cond: () => boolean | Promise<boolean>, what: string, timeout = 15_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Clicks a button that opens the confirm dialog, then confirms. */
export async function confirm(page: Page, trigger: Locator): Promise<void> {
  await trigger.click();
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  await dialog.getByTestId('confirm-ok').click();
  await dialog.waitFor({ state: 'detached' });
}

export interface Restartable { url: string; stop(): Promise<void>; start(): Promise<void> }

/** A server that can be stopped and started again on the same port and database (the UI sees it go away and come back). */
export async function startRestartableServer(): Promise<Restartable> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'promptd-e2e-'));
  const opts = { databaseUrl: `file:${path.join(dir, 'e2e.db')}`, host: '127.0.0.1', adminToken: ADMIN_TOKEN, seed: false, logger: createLogger(process.env.E2E_LOG_LEVEL ?? 'silent') };
  let running: Running | null = await startServer({ ...opts, port: 0 });
  const url = running.url;
  const port = Number(new URL(url).port);
  return {
    url,
    async stop() {
      await running?.close();
      running = null;
    },
    async start() {
      running ??= await startServer({ ...opts, port });
    },
  };
}
