// WCAG 2.4.11: the sticky save bar (bottom) and header (top) must never hide the field being edited.
import { useEffect, type RefObject } from 'react';

const GAP = 12;

function reveal(el: HTMLElement, bar: HTMLElement) {
  if (bar.contains(el) || getComputedStyle(bar).position !== 'sticky') return;
  const r = el.getBoundingClientRect();
  const b = bar.getBoundingClientRect();
  if (r.right < b.left || r.left > b.right) return; // another column (the preview)
  const barTop = b.top;
  const header = document.querySelector('.app-header');
  const headerBottom = header && getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().bottom : 0;
  if (r.bottom > barTop - GAP) window.scrollBy({ top: Math.min(r.bottom - barTop + GAP, r.top - headerBottom - GAP), behavior: 'instant' });
  else if (r.top < headerBottom + GAP) window.scrollBy({ top: r.top - headerBottom - GAP, behavior: 'instant' });
}

/** Scrolls a focused (or growing, caret-at-the-end) field out from under the sticky bars; exports the bar height for scroll-padding. */
export function useKeepFocusVisible(barRef: RefObject<HTMLElement | null>, mounted: boolean): void {
  useEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    const root = document.documentElement;
    const ro = new ResizeObserver(() => root.style.setProperty('--save-bar-h', `${Math.ceil(bar.getBoundingClientRect().height)}px`));
    ro.observe(bar);
    // After the browser's own focus scrolling, which only makes sure the field is somewhere in the viewport.
    const onFocus = (e: FocusEvent) => {
      const t = e.target;
      if (t instanceof HTMLElement) requestAnimationFrame(() => document.activeElement === t && reveal(t, bar));
    };
    const onInput = (e: Event) => {
      const t = e.target;
      if (t instanceof HTMLTextAreaElement && t.selectionEnd === t.value.length) requestAnimationFrame(() => reveal(t, bar));
    };
    document.addEventListener('focusin', onFocus);
    document.addEventListener('input', onInput);
    return () => {
      ro.disconnect();
      root.style.removeProperty('--save-bar-h');
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('input', onInput);
    };
  }, [barRef, mounted]);
}
