import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { ProgressBar } from 'primereact/progressbar';
import { api, ApiError } from '../../core/http-client.ts';
import { appStore } from '../../core/app-store.ts';
import { sessionAtom } from '../../core/session-atoms.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import './stock-i18n.ts';

type Mode = 'all_or_nothing' | 'valid_rows';
interface ImportError { row: number; column: string; code: string; reason: string; reason_th: string }
interface Preview {
  total: number; valid: number; invalid: number; would_import: number; error_count: number;
  columns: { header: string; field: string | null }[]; errors: ImportError[]; sample: Record<string, unknown>[];
}
interface Job { id: string; state: 'importing' | 'done' | 'failed'; total: number; valid: number; invalid: number; done: number; imported: number; progress: number; message: string | null; message_th: string | null; errors: ImportError[]; error_count: number }

/** The upload goes as multipart with the session's token (the JSON client sends JSON only). */
async function send(entity: string, file: File, mode: Mode, dryRun: boolean): Promise<{ data: Preview | Job }> {
  const token = appStore.get(sessionAtom).id_token;
  const body = new FormData();
  body.append('file', file);
  const res = await fetch(`/api/${entity}/import?mode=${mode}&dry_run=${dryRun}`, { method: 'POST', body, headers: { Authorization: `Bearer ${token}`, 'x-access-token': token } });
  const json = await res.json().catch(() => null) as { data?: Preview | Job; error?: { code: string; message: string } } | null;
  if (!res.ok || !json?.data) throw new ApiError(res.status, json?.error?.message ?? `HTTP ${res.status}`, json?.error?.code ?? 'ERROR');
  return json as { data: Preview | Job };
}

/**
 * /<entity>/import (an entity whose schema says `importable`): choose a CSV or XLSX file and how to treat wrong rows
 * (the screen says which), check it first (counts, columns, first rows and
 * every error by row, column and reason), then import with a progress bar
 * that follows the server's job.
 */
export default function ImportPage({ entity, titleKey }: { entity: string; titleKey: string }) {
  const { t, i18n } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('all_or_nothing');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => { if (timer.current) clearTimeout(timer.current); }, []);

  const check = async () => {
    if (!file) return;
    setBusy(true); setError(null); setJob(null);
    try { setPreview((await send(entity, file, mode, true)).data as Preview); } catch (e) { setError(e); setPreview(null); } finally { setBusy(false); }
  };
  const follow = (id: string, delay = 300) => {
    timer.current = setTimeout(() => {
      api.get<{ data: Job }>(`/api/${entity}/import/${id}`).then((r) => { setError(null); setJob(r.data); if (r.data.state === 'importing') follow(id); }, (e) => {
        setError(e);
        // 503: the progress cannot be read for now (Redis or the database down), the import goes on: keep asking
        if (e instanceof ApiError && e.status === 503) follow(id, 2000);
      });
    }, delay);
  };
  const run = async () => {
    if (!file) return;
    setBusy(true); setError(null);
    try { const j = (await send(entity, file, mode, false)).data as Job; setJob(j); follow(j.id); } catch (e) { setError(e); } finally { setBusy(false); }
  };

  const errors = job?.errors ?? preview?.errors ?? [];
  const reason = (e: ImportError) => (i18n.language === 'en' ? e.reason : e.reason_th);
  return (
    <section className="bo-page" data-testid={`${entity}-import`}>
      <PageTitle>{t(titleKey)}</PageTitle>
      <p className="bo-muted" style={{ marginTop: 0 }}>{t('import.columns_hint', { entity: t(`entity.${entity}`, { defaultValue: entity }) })}</p>
      <div className="bo-toolbar" style={{ alignItems: 'center' }}>
        <span>{t('import.file')}</span>
        {/* the browser's own file button reads "Choose File" whatever the page's language: a Thai button over a hidden input
            that keeps the keyboard (Tab reaches it, Space or Enter opens the chooser, the ring shows on the button) */}
        <label className="p-button p-component p-button-outlined p-button-sm bo-file-pick">
          <i className="pi pi-folder-open" aria-hidden="true" />
          <span>{t('file.choose')}</span>
          <input type="file" className="bo-sr-only" aria-label={`${t('file.choose')} (${t('import.file')})`}
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); setPreview(null); setJob(null); }} data-testid="import-file" />
        </label>
        <span className={file ? undefined : 'bo-muted'} data-testid="import-file-name">{file ? file.name : t('import.no_file')}</span>
      </div>
      <fieldset className="bo-import-mode" style={{ border: 0, padding: 0 }}>
        <legend><strong>{t('import.mode')}</strong></legend>
        {(['all_or_nothing', 'valid_rows'] as const).map((m) => (
          <label key={m} style={{ display: 'block', margin: '4px 0' }}>
            <input type="radio" name="import-mode" value={m} checked={mode === m} onChange={() => { setMode(m); setPreview(null); }} data-testid={`import-mode-${m}`} /> {t(`import.mode.${m}`)}
          </label>
        ))}
      </fieldset>
      <div className="bo-toolbar">
        <Button label={t('import.preview')} icon="pi pi-search" outlined disabled={!file || busy} onClick={() => void check()} data-testid="import-preview" />
        <Button label={t('import.run')} icon="pi pi-upload" disabled={!file || busy || job?.state === 'importing'} onClick={() => void run()} data-testid="import-run" />
      </div>
      <ErrorBox error={error} />
      {preview && !job && (
        <p data-testid="import-summary">{t('import.rows')} {preview.total} · {t('import.valid')} {preview.valid} · {t('import.invalid')} {preview.invalid} · {t('import.would_import')} {preview.would_import}</p>
      )}
      {job && (
        <div data-testid="import-job" data-state={job.state}>
          <p>{job.state === 'importing' ? t('import.progress') : job.state === 'done' ? t('import.done') : t('import.failed')} · {t('import.imported')} {job.imported} / {job.valid}{job.message ? ` · ${i18n.language === 'en' ? job.message : job.message_th ?? job.message}` : ''}</p>
          <ProgressBar value={job.state === 'failed' ? 0 : job.progress} />
        </div>
      )}
      {preview && preview.sample.length > 0 && !job && (
        <>
          <h3>{t('import.sample')}</h3>
          <div className="bo-table-wrap"><table className="bo-admin-table">
            <thead><tr><th>{t('import.row')}</th>{preview.columns.filter((c) => c.field).map((c) => <th key={c.header}>{c.header}</th>)}</tr></thead>
            <tbody>{preview.sample.map((s) => <tr key={String(s.row)}><td>{String(s.row)}</td>{preview.columns.filter((c) => c.field).map((c) => <td key={c.header}>{String(s[c.field!] ?? '')}</td>)}</tr>)}</tbody>
          </table></div>
        </>
      )}
      {errors.length > 0 && (
        <>
          <h3>{t('import.errors')} ({(job ?? preview)?.error_count ?? errors.length})</h3>
          <div className="bo-table-wrap"><table className="bo-admin-table" data-testid="import-errors">
            <thead><tr><th>{t('import.row')}</th><th>{t('import.column')}</th><th>{t('import.reason')}</th></tr></thead>
            <tbody>{errors.map((e, i) => <tr key={i}><td>{e.row}</td><td>{e.column}</td><td>{reason(e)}</td></tr>)}</tbody>
          </table></div>
        </>
      )}
    </section>
  );
}
