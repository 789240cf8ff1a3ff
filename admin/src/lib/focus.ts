// Focus that must move after React has committed the next render (an element re-enabled, added or removed).
import { useEffect, useRef } from 'react';

type Target = () => HTMLElement | null | undefined;

/** `focusLater(() => el)`: after the next commit, focuses the first target that exists, is connected and enabled. */
export function useFocusLater(): (...targets: Target[]) => void {
  const pending = useRef<Target[] | null>(null);
  useEffect(() => {
    const targets = pending.current;
    if (!targets) return;
    pending.current = null;
    for (const t of targets) {
      const el = t();
      if (el && el.isConnected && !(el as HTMLButtonElement).disabled) {
        el.focus();
        return;
      }
    }
  });
  return (...targets) => {
    pending.current = targets;
  };
}

/** True when keyboard focus fell back to the page (its element was removed or disabled). */
export const focusLost = () => !document.activeElement || document.activeElement === document.body;
