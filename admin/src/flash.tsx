// One-shot success messages that survive a navigation ("Saved v2", "Deleted x").
import { useEffect, useState } from 'react';
import { Banner } from './components/bits';

interface Flash { msg: string; path: string; seq: number }
let current: Flash | null = null;
let seq = 0;
const EVENT = 'promptd:flash';

/** Shows `msg` on `path` (default: the current page) until the user goes elsewhere. */
export function pushFlash(msg: string, path: string = location.pathname): void {
  current = { msg, path, seq: ++seq };
  window.dispatchEvent(new Event(EVENT));
}

export function clearFlash(): void {
  current = null;
  window.dispatchEvent(new Event(EVENT));
}

export function FlashBanner({ pathname }: { pathname: string }) {
  const [flash, setFlash] = useState<Flash | null>(current);
  useEffect(() => {
    const update = () => setFlash(current);
    window.addEventListener(EVENT, update);
    return () => window.removeEventListener(EVENT, update);
  }, []);
  useEffect(() => {
    if (current && current.path !== pathname) clearFlash();
  }, [pathname]);
  const shown = flash && flash.path === pathname ? flash : null;
  // The live region stays mounted, so a message put into it is announced.
  return (
    <div className="flash" role="status" aria-live="polite" data-testid="flash-region">
      {shown && (
        <Banner kind="success" testId="flash" live={false}>
          {shown.msg}
          <button
            type="button"
            className="btn-link"
            aria-label="Dismiss message"
            onClick={() => {
              clearFlash();
              document.getElementById('main')?.focus();
            }}
          >
            ×
          </button>
        </Banner>
      )}
    </div>
  );
}
