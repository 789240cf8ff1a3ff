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
  if (!flash || flash.path !== pathname) return null;
  return (
    <div className="flash">
      <Banner kind="success" testId="flash">
        {flash.msg}
        <button type="button" className="btn-link" onClick={clearFlash} aria-label="Dismiss message">
          ×
        </button>
      </Banner>
    </div>
  );
}
