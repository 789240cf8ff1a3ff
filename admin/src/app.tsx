// Auth gate, app shell (landmarks, nav, live status) and routes.
import { useEffect, useRef, useState } from 'react';
import { setUnauthorizedHandler } from './api';
import { clearToken, getToken, setToken } from './auth';
import { FlashBanner } from './flash';
import { LiveProvider, useLive } from './live';
import { href, Link, useLocation, type Route } from './router';
import { SignIn } from './components/sign-in';
import { PromptList } from './components/prompt-list';
import { PromptPage } from './components/prompt-page';
import { EditorPage } from './components/editor/editor-page';
import { ResourcesPage } from './components/resources-page';
import { ConnectPage } from './components/connect-page';
import { WebhooksPage } from './components/webhooks-page';
import { LabelsPage } from './components/labels-page';
import { BinPage } from './components/bin-page';
import { TokensPage } from './components/tokens-page';
import { MeProvider, useCan, useRole } from './me';
import { ActivityPage } from './components/activity-page';
import { UsagePage } from './components/usage/usage-page';

export function App() {
  const [token, setTok] = useState(getToken);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    setUnauthorizedHandler(() => {
      setTok(null);
      setNotice('Token rejected. Sign in with a valid admin token.');
    });
  }, []);
  if (!token) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(t) => {
          setToken(t);
          setTok(t);
          setNotice(null);
        }}
      />
    );
  }
  const signOut = () => {
    clearToken();
    setTok(null);
    setNotice('Signed out.');
  };
  return (
    <LiveProvider key={token}>
      <MeProvider key={token}>
        <Shell onSignOut={signOut} />
      </MeProvider>
    </LiveProvider>
  );
}

function LiveStatus() {
  const { status } = useLive();
  const label = status === 'open' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  return (
    <span className={`live live-${status}`} data-testid="live-status" data-status={status} title="Live updates from other editors">
      <span className="live-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

function navClass(route: Route, pages: Route['page'][]): string | undefined {
  return pages.includes(route.page) ? 'current' : undefined;
}

/** After an in-app navigation: back to the top, and focus the new page (unless it focused a field itself). */
function useFocusOnNavigate(pathname: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    const main = document.getElementById('main');
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [pathname]);
}

function Shell({ onSignOut }: { onSignOut: () => void }) {
  const { route, search } = useLocation();
  useFocusOnNavigate(location.pathname);
  const isPrompts = ['prompts', 'prompt', 'edit', 'new', 'bin'] as Route['page'][];
  const role = useRole();
  const isAdmin = useCan('admin');
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link href={href.prompts()} className="brand" aria-label="promptd home">
          <span className="brand-mark" aria-hidden="true">{'{ }'}</span> promptd
        </Link>
        <nav aria-label="Main">
          <ul>
            <li>
              <Link href={href.prompts()} data-testid="nav-prompts" className={navClass(route, isPrompts)} aria-current={isPrompts.includes(route.page) ? 'page' : undefined}>
                Prompts
              </Link>
            </li>
            <li>
              <Link href={href.labels()} data-testid="nav-labels" className={navClass(route, ['labels'])} aria-current={route.page === 'labels' ? 'page' : undefined}>
                Labels
              </Link>
            </li>
            <li>
              <Link href={href.resources()} data-testid="nav-resources" className={navClass(route, ['resources'])} aria-current={route.page === 'resources' ? 'page' : undefined}>
                Resources
              </Link>
            </li>
            <li>
              <Link href={href.usage()} data-testid="nav-usage" className={navClass(route, ['usage'])} aria-current={route.page === 'usage' ? 'page' : undefined}>
                Usage
              </Link>
            </li>
            {isAdmin && <li>
              <Link href={href.webhooks()} data-testid="nav-webhooks" className={navClass(route, ['webhooks'])} aria-current={route.page === 'webhooks' ? 'page' : undefined}>
                Webhooks
              </Link>
            </li>}
            <li>
              <Link href={href.activity()} data-testid="nav-activity" className={navClass(route, ['activity'])} aria-current={route.page === 'activity' ? 'page' : undefined}>
                Activity
              </Link>
            </li>
            {isAdmin && <li>
              <Link href={href.tokens()} data-testid="nav-tokens" className={navClass(route, ['tokens'])} aria-current={route.page === 'tokens' ? 'page' : undefined}>
                Tokens
              </Link>
            </li>}
            <li>
              <Link href={href.connect()} data-testid="nav-connect" className={navClass(route, ['connect'])} aria-current={route.page === 'connect' ? 'page' : undefined}>
                Connect
              </Link>
            </li>
          </ul>
        </nav>
        <div className="header-end">
          <LiveStatus />
          {role && <span className="muted" data-testid="my-role" title="What this token may do (docs/access.md)">{role}</span>}
          <button type="button" className="btn btn-small" data-testid="sign-out" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <FlashBanner pathname={location.pathname} />
        <Page route={route} search={search} />
      </main>
    </>
  );
}

function Page({ route, search }: { route: Route; search: URLSearchParams }) {
  switch (route.page) {
    case 'prompts':
      return <PromptList search={search} />;
    case 'new':
      return <EditorPage key="new" name={null} />;
    case 'prompt':
      return <PromptPage key={route.name} name={route.name} initialVersion={Number(search.get('version')) || null} />;
    case 'edit':
      return <EditorPage key={`edit:${route.name}`} name={route.name} />;
    case 'resources':
      return <ResourcesPage />;
    case 'connect':
      return <ConnectPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'labels':
      return <LabelsPage />;
    case 'bin':
      return <BinPage />;
    case 'tokens':
      return <TokensPage />;
    case 'activity':
      return <ActivityPage search={search} />;
    case 'usage':
      return <UsagePage search={search} />;
    default:
      return (
        <section className="page">
          <h1>Not found</h1>
          <p>
            Nothing lives here. <Link href={href.prompts()}>Back to prompts</Link>
          </p>
        </section>
      );
  }
}
