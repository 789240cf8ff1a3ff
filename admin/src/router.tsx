// A tiny history-API router for the paths under the Vite base (/admin/).
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const BASE = import.meta.env.BASE_URL.replace(/\/$/, ''); // "/admin"

export type Route =
  | { page: 'prompts' }
  | { page: 'new' }
  | { page: 'prompt'; name: string }
  | { page: 'edit'; name: string }
  | { page: 'resources' }
  | { page: 'connect' }
  | { page: 'webhooks' }
  | { page: 'labels' }
  | { page: 'bin' }
  | { page: 'tokens' }
  | { page: 'activity' }
  | { page: 'usage' }
  | { page: 'not-found' };

export function parse(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'prompts')) return { page: 'prompts' };
  if (parts.length === 1 && parts[0] === 'new') return { page: 'new' };
  if (parts.length === 1 && parts[0] === 'resources') return { page: 'resources' };
  if (parts.length === 1 && parts[0] === 'connect') return { page: 'connect' };
  if (parts.length === 1 && parts[0] === 'webhooks') return { page: 'webhooks' };
  if (parts.length === 1 && parts[0] === 'labels') return { page: 'labels' };
  if (parts.length === 1 && parts[0] === 'bin') return { page: 'bin' };
  if (parts.length === 1 && parts[0] === 'tokens') return { page: 'tokens' };
  if (parts.length === 1 && parts[0] === 'activity') return { page: 'activity' };
  if (parts.length === 1 && parts[0] === 'usage') return { page: 'usage' };
  if (parts[0] === 'prompts' && parts.length === 2) return { page: 'prompt', name: parts[1]! };
  if (parts[0] === 'prompts' && parts.length === 3 && parts[2] === 'edit') return { page: 'edit', name: parts[1]! };
  return { page: 'not-found' };
}

export const href = {
  prompts: () => `${BASE}/`,
  newPrompt: () => `${BASE}/new`,
  prompt: (name: string) => `${BASE}/prompts/${encodeURIComponent(name)}`,
  edit: (name: string) => `${BASE}/prompts/${encodeURIComponent(name)}/edit`,
  resources: () => `${BASE}/resources`,
  connect: () => `${BASE}/connect`,
  webhooks: () => `${BASE}/webhooks`,
  labels: () => `${BASE}/labels`,
  bin: () => `${BASE}/bin`,
  tokens: () => `${BASE}/tokens`,
  activity: (query = '') => `${BASE}/activity${query ? `?${query}` : ''}`,
  usage: (query = '') => `${BASE}/usage${query ? `?${query}` : ''}`,
};

const EVENT = 'promptd:navigate';

/**
 * A page with unsaved work registers a guard: it answers `true` (leave now) synchronously,
 * or a promise of the author's answer. Only one page is mounted at a time, so one guard is enough.
 */
export type LeaveGuard = () => boolean | Promise<boolean>;
let guard: LeaveGuard | null = null;

export function setLeaveGuard(g: LeaveGuard): () => void {
  guard = g;
  return () => {
    if (guard === g) guard = null;
  };
}

function go(to: string, replace?: boolean): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(EVENT));
}

/** Asks the guard first; a sync `true` navigates at once (callers may rely on the new location right after). */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const answer = guard ? guard() : true;
  if (answer === true) return go(to, opts.replace);
  if (answer === false) return;
  void answer.then((ok) => {
    if (ok) go(to, opts.replace);
  });
}

// Where the app last was, to undo a Back/Forward the guard refuses.
let shown = typeof location === 'undefined' ? '' : location.pathname + location.search;

export function useLocation(): { route: Route; search: URLSearchParams } {
  const read = () => ({ route: parse(location.pathname), search: new URLSearchParams(location.search) });
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const update = () => {
      shown = location.pathname + location.search;
      setLoc(read());
    };
    // Back/Forward has already moved the URL: put it back, ask, then move again if the author agrees.
    const onPop = () => {
      const target = location.pathname + location.search;
      const answer = guard ? guard() : true;
      if (answer === true) return update();
      history.pushState(null, '', shown);
      if (answer === false) return;
      void answer.then((ok) => {
        if (ok) go(target);
      });
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener(EVENT, update);
    };
  }, []);
  return loc;
}

/** An <a> that navigates without a reload (modifier clicks still open new tabs). */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { onClick, ...rest } = props;
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.href);
  };
  return <a {...rest} onClick={handle} />;
}
