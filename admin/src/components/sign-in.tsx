import { useId, useState, type FormEvent } from 'react';
import { ApiError, api, errorMessage } from '../api';

export function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const t = token.trim();
    if (!t) return;
    setBusy(true);
    setError(null);
    try {
      await api.verifyToken(t);
      onSignedIn(t);
    } catch (err) {
      setError(err instanceof ApiError && (err.status === 401 || err.status === 403) ? 'Token rejected. Check the admin token and try again.' : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const shown = error ?? notice;
  return (
    <main id="main" className="signin">
      <form className="card signin-card" onSubmit={submit} aria-labelledby={`${id}-h`}>
        <h1 id={`${id}-h`}>
          <span className="brand-mark" aria-hidden="true">{'{ }'}</span> promptd admin
        </h1>
        <p className="muted">Sign in with an admin token (<code>PROMPTD_ADMIN_TOKEN</code> or one made with <code>promptd token create</code>). It is kept in this tab only.</p>
        {shown && (
          <p className={error || notice?.startsWith('Token') ? 'field-error' : 'muted'} role="alert" data-testid="signin-error">
            {shown}
          </p>
        )}
        <div className="field">
          <label htmlFor={id}>Admin token</label>
          <input
            id={id}
            type="password"
            autoComplete="current-password"
            data-testid="signin-token"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
            autoFocus
          />
        </div>
        <button type="submit" className="btn btn-primary" data-testid="signin-submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
