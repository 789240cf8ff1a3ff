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
  | { page: 'not-found' };

export function parse(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'prompts')) return { page: 'prompts' };
  if (parts.length === 1 && parts[0] === 'new') return { page: 'new' };
  if (parts.length === 1 && parts[0] === 'resources') return { page: 'resources' };
  if (parts.length === 1 && parts[0] === 'connect') return { page: 'connect' };
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
};

const EVENT = 'promptd:navigate';

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(EVENT));
}

export function useLocation(): { route: Route; search: URLSearchParams } {
  const read = () => ({ route: parse(location.pathname), search: new URLSearchParams(location.search) });
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const update = () => setLoc(read());
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
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
