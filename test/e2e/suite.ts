// Per-file setup for the admin UI e2e tests: one browser, and a fresh server + page per test.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ServerOptions } from '../../src/server.js';
import { ensureAdminBuilt, launchBrowser, newPage, startTestServer, type Running } from './harness.js';

// The UI runs on SQLite only (a temp file per test); the PostgreSQL pass of `npm test` skips it.
export const skipE2E = process.env.PROMPTD_SKIP_E2E === '1' || process.env.PROMPTD_TEST_DB === 'postgres';

export interface Setup { server: Running; page: Page; context: BrowserContext; errors: string[] }

/** Call inside a describe: registers the hooks and returns `setup(width?)` and `onCleanup(fn)`. */
export function useE2E() {
  let browser: Browser;
  const cleanup: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    ensureAdminBuilt();
    browser = await launchBrowser();
  });
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!().catch(() => {});
  });
  afterAll(async () => {
    await browser?.close();
  });
  const onCleanup = (fn: () => Promise<unknown>) => void cleanup.push(fn);
  const setup = async (width = 1280, height = 900, serverOptions: Partial<ServerOptions> = {}): Promise<Setup> => {
    const server = await startTestServer(serverOptions);
    onCleanup(() => server.close());
    const { context, page, errors } = await newPage(browser, width, height);
    onCleanup(() => context.close());
    return { server, page, context, errors };
  };
  return { setup, onCleanup };
}
