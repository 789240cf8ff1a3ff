// Accessibility probes for the e2e tests: a Tab walk over a page, and a WCAG contrast scan. No extra dependencies.
import type { Page } from 'playwright-core';

export interface Stop { i: number; desc: string; ring: boolean; obscuredBy: string | null }
export interface TabReport { stops: Stop[]; interactive: string[]; missed: string[]; positiveTabindex: string[] }

/** Marks every visible, enabled interactive element (one per radio group) with data-a11y-i; returns descriptions. */
async function markInteractive(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (el: Element) => {
      const h = el as HTMLElement;
      const label = h.getAttribute('aria-label') || (h.id && document.querySelector(`label[for="${CSS.escape(h.id)}"]`)?.textContent) || h.textContent || h.getAttribute('placeholder') || '';
      return `${el.tagName.toLowerCase()}${h.dataset.testid ? `[${h.dataset.testid}]` : ''} "${label.trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    };
    (window as unknown as { __a11yDescribe: typeof describe }).__a11yDescribe = describe;
    const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, audio[controls], [tabindex]:not([tabindex="-1"])';
    const seenRadio = new Set<string>();
    const out: string[] = [];
    document.querySelectorAll('[data-a11y-i]').forEach((el) => el.removeAttribute('data-a11y-i'));
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      if ((el as HTMLButtonElement).disabled || el.closest('[inert], dialog:not([open])')) continue;
      if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      if (el.closest('details:not([open])') && !(el.tagName === 'SUMMARY' && el.parentElement?.tagName === 'DETAILS')) continue;
      if (el instanceof HTMLInputElement && el.type === 'radio') {
        const group = el.name || el.id;
        const checked = el.form || document;
        const anyChecked = [...checked.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${CSS.escape(group)}"]`)].some((r) => r.checked);
        if (seenRadio.has(group) || (anyChecked && !el.checked)) continue;
        seenRadio.add(group);
      }
      el.dataset.a11yI = String(out.length);
      out.push(describe(el));
    }
    return out;
  });
}

/** Presses Tab from the top of a freshly loaded page until focus leaves the document or comes round again. */
export async function tabWalk(page: Page, max = 250): Promise<TabReport> {
  const interactive = await markInteractive(page);
  const positiveTabindex = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[tabindex]')].filter((e) => e.tabIndex > 0).map((e) => e.outerHTML.slice(0, 80)));
  const stops: Stop[] = [];
  for (let n = 0; n < max; n++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const cs = getComputedStyle(el);
      const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== 'none';
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
      const ok = !hit || hit === el || el.contains(hit) || hit.contains(el) || (el.id && hit.closest(`label[for="${CSS.escape(el.id)}"]`));
      const describe = (window as unknown as { __a11yDescribe: (e: Element) => string }).__a11yDescribe;
      return { i: Number(el.dataset.a11yI ?? -1), desc: describe(el), ring, obscuredBy: ok ? null : describe(hit) };
    });
    if (!stop || (stops.length && stop.desc === stops[0]!.desc && stop.i === stops[0]!.i)) break;
    stops.push(stop);
  }
  const reached = new Set(stops.map((s) => s.i));
  return { stops, interactive, missed: interactive.filter((_, i) => !reached.has(i)), positiveTabindex };
}

/** Index of the first Tab stop whose description contains `text` (-1 if none). */
export const stopIndex = (r: TabReport, text: string) => r.stops.findIndex((s) => s.desc.includes(text));

export interface ContrastIssue { text: string; ratio: number; need: number; fg: string; bg: string }

/** Every visible text (and placeholder) under each `scope` match, against its effective background. */
export async function measureContrast(page: Page, scope = 'body'): Promise<ContrastIssue[]> {
  return page.evaluate((scopeSel) => {
    const parse = (c: string): number[] => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return [0, 0, 0, 0];
      const p = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
    };
    const over = (top: number[], bottom: number[]) => [0, 1, 2].map((k) => top[k]! * top[3]! + bottom[k]! * (1 - top[3]!)).concat(1);
    const lum = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const background = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3]! > 0) layers.push(bg);
        if (bg[3] === 1) break;
      }
      return layers.reverse().reduce((acc, l) => over(l, acc), [255, 255, 255, 1]);
    };
    const ratio = (a: number[], b: number[]) => {
      const [x, y] = [lum(a) + 0.05, lum(b) + 0.05];
      return Math.max(x, y) / Math.min(x, y);
    };
    const dimmed = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) return true;
      return false;
    };
    const issues: { text: string; ratio: number; need: number; fg: string; bg: string }[] = [];
    const roots = [...document.querySelectorAll(scopeSel)];
    for (const el of roots.flatMap((r) => [r, ...r.querySelectorAll('*')])) {
      const cs = getComputedStyle(el);
      if (!el.getClientRects().length || cs.visibility === 'hidden' || el.closest('.sr-only, [aria-hidden="true"]')) continue;
      const disabled = el.closest('button:disabled, input:disabled, select:disabled, textarea:disabled') !== null;
      if (disabled && dimmed(el)) continue; // WCAG exempts disabled controls
      const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent!.trim()).map((n) => n.textContent!.trim()).join(' ');
      const ph = (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && !el.value && el.placeholder ? el.placeholder : '';
      const texts: [string, string][] = [];
      if (own) texts.push([own, cs.color]);
      if (ph) texts.push([`placeholder: ${ph}`, getComputedStyle(el, '::placeholder').color]);
      for (const [text, color] of texts) {
        const fgRaw = parse(color);
        if (fgRaw[3] === 0) continue; // transparent text (e.g. the template highlighter's backdrop)
        const bg = background(el);
        const fg = over(fgRaw, bg);
        const size = parseFloat(cs.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
        const need = large ? 3 : 4.5;
        const r = ratio(fg, bg);
        issues.push({ text: text.slice(0, 60), ratio: Math.round(r * 100) / 100, need, fg: color, bg: `rgb(${bg.slice(0, 3).map(Math.round).join(',')})` });
      }
    }
    return issues;
  }, scope);
}

/** The texts below WCAG AA (4.5:1, or 3:1 for large text). */
export async function contrastIssues(page: Page, scope = 'body'): Promise<ContrastIssue[]> {
  return (await measureContrast(page, scope)).filter((m) => m.ratio < m.need);
}
