// Live updates: one EventSource per signed-in session; `revision` bumps (debounced) on change events.
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { openEvents } from './api';
import type { ChangeEvent } from './types';

export interface LiveState {
  status: 'connecting' | 'open' | 'error';
  revision: number;
  last: ChangeEvent | null;
}

const LiveContext = createContext<LiveState>({ status: 'connecting', revision: 0, last: null });

export function LiveProvider({ children, debounceMs = 250 }: { children: ReactNode; debounceMs?: number }) {
  const [state, setState] = useState<LiveState>({ status: 'connecting', revision: 0, last: null });
  const pending = useRef<ChangeEvent | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const close = openEvents(
      (ev) => {
        pending.current = ev;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          const last = pending.current;
          setState((s) => ({ ...s, revision: s.revision + 1, last }));
        }, debounceMs);
      },
      // Each (re)opened stream only carries what happens from then on: whatever changed
      // between a page's first load and the stream opening would never arrive. So an open
      // counts as a change, and every page re-reads once.
      (status) => setState((s) => (status === 'open' ? { ...s, status, revision: s.revision + 1 } : s.status === status ? s : { ...s, status })),
    );
    return () => {
      clearTimeout(timer.current);
      close();
    };
  }, [debounceMs]);

  return <LiveContext.Provider value={state}>{children}</LiveContext.Provider>;
}

export function useLive(): LiveState {
  return useContext(LiveContext);
}
