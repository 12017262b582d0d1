import { useEffect, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Password } from 'primereact/password';
import { Dropdown } from 'primereact/dropdown';
import { api } from '../../core/http-client.ts';
import { appStore } from '../../core/app-store.ts';
import { sessionAtom } from '../../core/session-atoms.ts';
import { connectSocket } from '../../core/socket-client.ts';
import { fetchFileBlob, sendFiles } from '../../core/file-api.ts';
import { setLanguage, type Lang } from '../../core/i18n.ts';
import { toast } from '../../core/toast-bus.ts';
import { useCan } from '../../core/permissions.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { ErrorBox, errorText } from './admin-common.tsx';

const LANGS = [{ value: 'th', label: 'ไทย' }, { value: 'en', label: 'English' }];

/** Stores fields of the signed-in session (spec section 3: local storage and memory). */
function updateSession(patch: Partial<{ id_token: string; email: string; user_avatar: string }>) {
  const s = { ...appStore.get(sessionAtom), ...patch };
  for (const [k, v] of Object.entries(patch)) localStorage.setItem(k, String(v ?? ''));
  appStore.set(sessionAtom, s);
}

/**
 * /account_edit/{id}: one's own name, email, avatar (upload with progress and a
 * preview) and language, and the password (the current one is needed; other
 * sessions end). Another id: not found, or the account editor for those who may edit accounts.
 */
export default function AccountEdit({ entity = '' }: { entity?: string }) {
  const { id } = useParams();
  const { t, i18n } = useTranslation();
  const session = useAtomValue(sessionAtom);
  const canEditAccounts = useCan(entity, 'edit');
  const own = Number(id) === session.id;
  const [form, setForm] = useState({ first_name: '', last_name: '', email: '', user_avatar: '' });
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [pw, setPw] = useState({ current: '', next: '', again: '' });
  const [pwError, setPwError] = useState<unknown>(null);
  const [pwBusy, setPwBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!own) return;
    api.get<{ data: Record<string, unknown> }>(`/api/${entity}/${id}`, { searchParams: { fields: 'id,first_name,last_name,email,user_avatar' } }).then((r) => {
      const avatar = String(r.data.user_avatar ?? '');
      setForm({ first_name: String(r.data.first_name ?? ''), last_name: String(r.data.last_name ?? ''), email: String(r.data.email ?? ''), user_avatar: avatar });
      setLoaded(true);
      if (avatar) fetchFileBlob(avatar).then(({ blob }) => setPreview(URL.createObjectURL(blob)), () => undefined);
    }, (e) => setError(e));
  }, [entity, id, own]);

  if (!own) return canEditAccounts && /^[1-9][0-9]*$/.test(id ?? '') ? <Navigate to={`/${entity}/${id}`} replace /> : <NotFound />;
  if (!loaded) return error ? <section className="bo-page"><ErrorBox error={error} /></section> : <Spinner />;

  const pickAvatar = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      const [stored] = await sendFiles([file], 'avatar', setProgress);
      if (stored) setForm((f) => ({ ...f, user_avatar: stored.id }));
    } catch (e) {
      setError(e);
      setPreview(null);
    } finally {
      setProgress(null);
    }
  };

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      await api.patch(`/api/${entity}/${id}`, { first_name: form.first_name, last_name: form.last_name, email: form.email || null, user_avatar: form.user_avatar || null });
      updateSession({ email: form.email, user_avatar: form.user_avatar });
      toast('success', t('common.saved'));
    } catch (e) {
      setError(e);
      toast('error', t('admin.save_failed'), errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const changePassword = async () => {
    setPwError(null);
    if (pw.next !== pw.again) { setPwError(new Error(t('account.password_mismatch'))); return; }
    setPwBusy(true);
    try {
      const r = await api.post<{ data: { id_token: string } }>('/api/auth/password', { current_password: pw.current, new_password: pw.next });
      updateSession({ id_token: r.data.id_token });
      void connectSocket(r.data.id_token);
      setPw({ current: '', next: '', again: '' });
      toast('success', t('account.password_changed'));
    } catch (e) {
      setPwError(e);
    } finally {
      setPwBusy(false);
    }
  };

  return (
    <section className="bo-page">
      <PageTitle>{t('route.account_edit')}</PageTitle>
      <div className="bo-admin-sections">
        <div className="bo-card">
          <h2>{t('account.profile')} · {session.username}</h2>
          <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <div style={{ display: 'flex', flexDirection: 'column', gap: 8, alignItems: 'center' }}>
              {preview ? <img src={preview} alt={t('account.avatar')} className="bo-avatar" data-testid="avatar-preview" /> : <div className="bo-avatar"><i className="pi pi-user" /></div>}
              <input ref={fileInput} type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden onChange={(e) => void pickAvatar(e.target.files?.[0])} />
              <Button label={t('account.avatar_choose')} icon="pi pi-image" size="small" outlined onClick={() => fileInput.current?.click()} disabled={progress !== null} />
              {progress !== null && <div className="bo-progress" role="progressbar" aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100} style={{ width: 120 }}><span style={{ width: `${progress}%` }} /></div>}
              {form.user_avatar && progress === null && <Button label={t('account.avatar_remove')} text size="small" severity="danger" onClick={() => { setForm({ ...form, user_avatar: '' }); setPreview(null); }} />}
            </div>
            <div className="bo-grid cols-2" style={{ flex: 1, minWidth: 280 }}>
              <div className="bo-field"><label htmlFor="ae-first">{t('account.first_name')}</label><InputText id="ae-first" value={form.first_name} maxLength={100} onChange={(e) => setForm({ ...form, first_name: e.target.value })} /></div>
              <div className="bo-field"><label htmlFor="ae-last">{t('account.last_name')}</label><InputText id="ae-last" value={form.last_name} maxLength={100} onChange={(e) => setForm({ ...form, last_name: e.target.value })} /></div>
              <div className="bo-field"><label htmlFor="ae-email">{t('account.email')}</label><InputText id="ae-email" type="email" value={form.email} maxLength={320} onChange={(e) => setForm({ ...form, email: e.target.value })} /></div>
              <div className="bo-field">
                <label htmlFor="ae-lang">{t('account.language')}</label>
                <Dropdown inputId="ae-lang" value={i18n.language} options={LANGS} onChange={(e) => setLanguage(e.value as Lang)} />
                <small className="bo-help">{t('account.language_saved')}</small>
              </div>
            </div>
          </div>
          <ErrorBox error={error} />
          <div className="bo-form-actions" style={{ marginTop: 12 }}><Button label={t('common.save')} icon="pi pi-check" onClick={() => void save()} loading={saving} disabled={progress !== null} /></div>
        </div>
        <div className="bo-card">
          <h2>{t('account.change_password')}</h2>
          <div className="bo-grid cols-3">
            <div className="bo-field"><label htmlFor="ae-cur">{t('account.current_password')}</label><Password inputId="ae-cur" value={pw.current} feedback={false} toggleMask onChange={(e) => setPw({ ...pw, current: e.target.value })} /></div>
            <div className="bo-field"><label htmlFor="ae-new">{t('account.new_password')}</label><Password inputId="ae-new" value={pw.next} feedback={false} toggleMask onChange={(e) => setPw({ ...pw, next: e.target.value })} /></div>
            <div className="bo-field"><label htmlFor="ae-again">{t('account.confirm_password')}</label><Password inputId="ae-again" value={pw.again} feedback={false} toggleMask onChange={(e) => setPw({ ...pw, again: e.target.value })} /></div>
          </div>
          <small className="bo-help">{t('account.password_rule')}</small>
          <ErrorBox error={pwError} />
          <div className="bo-form-actions" style={{ marginTop: 12 }}><Button label={t('account.change_password')} icon="pi pi-key" onClick={() => void changePassword()} loading={pwBusy} disabled={!pw.current || !pw.next} /></div>
        </div>
      </div>
    </section>
  );
}
