import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { api } from '../../core/http-client.ts';
import { appStore } from '../../core/app-store.ts';
import { roleAtom } from '../../core/app-data.ts';
import { sessionAtom } from '../../core/session-atoms.ts';
import { ApiError, CANNOT_CONNECT } from '../../core/api-error.ts';
import { formatBytes } from '../../core/file-api.ts';
import { toast } from '../../core/toast-bus.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ErrorBox, downloadBlob, errorText, formatDateTime, isAdministrator } from './admin-common.tsx';

interface Backup { id: string; size: number; created_at: string; created_by_name: string | null; origin: 'manual' | 'schedule' | 'upload'; format: string; dialect: string; rows: number }
function uploadRestore(file: File): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/db_manage/restore');
    xhr.setRequestHeader('Authorization', `Bearer ${appStore.get(sessionAtom).id_token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      try {
        const e = (JSON.parse(xhr.responseText) as { error?: { code?: string; message?: string } }).error;
        reject(new ApiError(xhr.status, e?.message ?? `HTTP ${xhr.status}`, e?.code));
      } catch { reject(new ApiError(xhr.status, `HTTP ${xhr.status}`)); }
    };
    xhr.onerror = () => reject(new ApiError(408, CANNOT_CONNECT, 'NO_RESPONSE'));
    xhr.send(form);
  });
}

/** /db_manage: back up now, the backups (size, date, who) with downloads, and restore from a backup or a file. */
export default function DbManage() {
  const { t, i18n } = useTranslation();
  const role = useAtomValue(roleAtom);
  const [list, setList] = useState<Backup[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<{ id?: string; file?: File; when: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);

  const load = useCallback(() => {
    api.get<{ data: Backup[] }>('/api/db_manage/backup').then((r) => setList(r.data), (e) => { setError(e); setList([]); });
  }, []);
  useEffect(load, [load]);

  if (role.status !== 'loaded') return <Spinner />;
  if (!isAdministrator(role.data.role_detail as never)) {
    return <section className="bo-page"><PageTitle>{t('route.db_manage')}</PageTitle><p className="bo-admin-note" data-testid="db-admin-only">{t('admin.only_admins')}</p></section>;
  }

  const backupNow = async () => {
    setError(null);
    setBusy('backup');
    try {
      await api.post('/api/db_manage/backup');
      toast('success', t('db.backup_done'));
      load();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const restore = async () => {
    const c = confirm;
    setConfirm(null);
    if (!c) return;
    setError(null);
    setBusy('restore');
    try {
      if (c.file) await uploadRestore(c.file);
      else await api.post('/api/db_manage/restore', { id: c.id });
      toast('success', t('db.restored'));
      setTimeout(() => window.location.reload(), 1200);
    } catch (e) {
      setError(e);
      toast('error', t('common.error'), errorText(e));
      setBusy(null);
    }
  };

  const download = async (b: Backup) => {
    setBusy(`dl:${b.id}`);
    try { await downloadBlob(`/api/db_manage/backup/${encodeURIComponent(b.id)}/download`, `${b.id}.${b.format}`); } catch (e) { setError(e); } finally { setBusy(null); }
  };

  return (
    <section className="bo-page">
      <PageTitle actions={<Button label={t('db.backup_now')} icon="pi pi-database" onClick={() => void backupNow()} loading={busy === 'backup'} disabled={busy !== null && busy !== 'backup'} />}>
        {t('route.db_manage')}
      </PageTitle>
      <p className="bo-muted" style={{ marginTop: 0 }}>{t('db.schedule_note')}</p>
      <ErrorBox error={error} />
      <div className="bo-admin-sections">
        <div className="bo-card">
          <h2>{t('db.backups')}</h2>
          {list === null ? <Spinner /> : (
            <table className="bo-admin-table" data-testid="backup-list">
              <thead><tr><th>{t('db.created_at')}</th><th className="bo-num">{t('db.size')}</th><th>{t('db.by')}</th><th>{t('db.origin')}</th><th className="bo-num">{t('db.rows')}</th><th /></tr></thead>
              <tbody>
                {list.length === 0 && <tr><td colSpan={6} className="bo-muted">{t('db.empty')}</td></tr>}
                {list.map((b) => (
                  <tr key={b.id} data-id={b.id}>
                    <td>{formatDateTime(b.created_at, i18n.language)}<div className="bo-muted bo-mono" style={{ fontSize: 12 }}>{b.id} · {b.format}</div></td>
                    <td className="bo-num">{formatBytes(b.size)}</td>
                    <td>{b.created_by_name ?? '—'}</td>
                    <td>{t(`db.origin.${b.origin}`)}</td>
                    <td className="bo-num">{b.rows.toLocaleString()}</td>
                    <td style={{ whiteSpace: 'nowrap', textAlign: 'right' }}>
                      <Button label={t('db.download')} icon="pi pi-download" text size="small" onClick={() => void download(b)} loading={busy === `dl:${b.id}`} />
                      <Button label={t('db.restore')} icon="pi pi-replay" text size="small" severity="danger" disabled={busy !== null} onClick={() => setConfirm({ id: b.id, when: formatDateTime(b.created_at, i18n.language) })} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div className="bo-card">
          <h2>{t('db.restore_file')}</h2>
          <p className="bo-muted" style={{ marginTop: 0 }}>{t('db.restore_file_hint')}</p>
          <div className="bo-toolbar">
            <input ref={fileInput} type="file" accept=".sqlite,.gz,.jsonl.gz,application/gzip,application/vnd.sqlite3" hidden onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            <Button label={t('db.choose_file')} icon="pi pi-folder-open" outlined onClick={() => fileInput.current?.click()} />
            <span>{file ? `${file.name} (${formatBytes(file.size)})` : ''}</span>
            <Button label={t('db.restore')} icon="pi pi-upload" severity="danger" disabled={!file || busy !== null} loading={busy === 'restore'} onClick={() => file && setConfirm({ file, when: file.name })} />
          </div>
        </div>
      </div>
      <ConfirmDialog
        visible={confirm !== null}
        header={t('db.restore_confirm_title')}
        message={t('db.restore_confirm', { when: confirm?.when ?? '' })}
        confirmLabel={t('db.restore_confirm_button')}
        onConfirm={() => void restore()}
        onCancel={() => setConfirm(null)}
      />
    </section>
  );
}
