// axe-core in the real page: every admin UI page an e2e test visits is checked for
// WCAG 2.x A/AA violations (0 is the bar). The script comes from the axe-core
// package on disk, never from the network.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation { id: string; impact: string | null; help: string; targets: string[] }

/** The page's axe violations (WCAG 2.0/2.1/2.2 A and AA rules). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, not as an inline <script>: the admin's CSP
  // (script-src 'self') blocks inline scripts, which is what it is for.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Fails with a readable list when axe finds anything on the current page. */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const found = await axeViolations(page);
  if (found.length) throw new Error(`axe-core: ${found.length} violation(s) on ${where}:\n${found.map((v) => `  ${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`).join('\n')}`);
}
