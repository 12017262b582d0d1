import { useEffect, useState, type FormEvent } from 'react';
import { useAtomValue } from 'jotai';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../core/http-client.ts';
import { sessionAtom, signIn, type SignInUser } from '../core/session-atoms.ts';
import { setLanguage } from '../core/i18n.ts';
import { resetAppData } from '../core/app-data.ts';

interface SignInAnswer {
  success: boolean;
  data: { id_token: string; user: SignInUser };
}

/**
 * Staff sign-in (/signin) and customer sign-in (/signin/customer/{customerId}).
 * Plain markup with PrimeReact classes, no component JS: this page must stay light.
 */
export default function SignIn({ customer }: { customer: boolean }) {
  const { t, i18n } = useTranslation();
  const { customerId } = useParams();
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = customer ? t('signin.customer_title') : t('signin.title');
  useEffect(() => { document.title = `${title} · ${t('app.name')}`; }, [title, t]);

  const home = customer ? `/customerpage/${customerId}/bill` : '/';
  if (session.isAuthenticated && !busy) return <Navigate to={home} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) { setError(t('signin.required')); return; }
    setBusy(true);
    setError(null);
    try {
      const path = customer ? `/api/auth/signin/customer/${encodeURIComponent(customerId ?? '')}` : '/api/auth/signin';
      const res = await api.post<SignInAnswer>(path, { username: username.trim(), password });
      resetAppData();
      signIn(res.data.id_token, res.data.user);
      navigate(home, { replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  };

  const lang = i18n.language === 'en' ? 'en' : 'th';
  return (
    <main className="bo-signin">
      <form className="bo-signin-card" onSubmit={submit} noValidate aria-labelledby="signin-title">
        <div className="bo-signin-brand">
          <img src="/logo.svg" alt="" width={44} height={44} />
          <span>{t('app.name')}</span>
        </div>
        <h1 id="signin-title">{title}</h1>
        <label htmlFor="signin-username">{t('signin.username')}</label>
        <input id="signin-username" className="p-inputtext p-component" name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
        <label htmlFor="signin-password">{t('signin.password')}</label>
        <input id="signin-password" className="p-inputtext p-component" type="password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        {error && <div className="bo-signin-error" role="alert">{error}</div>}
        <button type="submit" className="p-button p-component bo-signin-submit" disabled={busy}>
          {busy && <span className="pi pi-spin pi-spinner" aria-hidden="true" />}
          <span className="p-button-label">{t('signin.submit')}</span>
        </button>
        <div className="bo-lang bo-signin-lang" role="group" aria-label={t('header.language')}>
          {(['th', 'en'] as const).map((l) => (
            <button key={l} type="button" className={l === lang ? 'active' : ''} aria-pressed={l === lang} onClick={() => setLanguage(l)}>{l.toUpperCase()}</button>
          ))}
        </div>
      </form>
    </main>
  );
}
