import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Dropdown } from 'primereact/dropdown';
import { api } from '../../core/http-client.ts';
import { useCan } from '../../core/permissions.ts';
import { toast } from '../../core/toast-bus.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { ErrorBox, downloadBlob, errorText, formatDate } from './admin-common.tsx';

export interface LogEntry {
  id: number; created_at: string; log_date: string; user_id: number | null; username: string | null; ip: string | null;
  action: string; entity: string | null; record_id: string | null; changes: Record<string, [unknown, unknown]> | null; message: string | null;
}
export const ACTIONS = ['create', 'update', 'delete', 'signin', 'signin_failed', 'signout', 'password_change', 'access_denied', 'backup', 'backup_download', 'restore', 'page_setting', 'custom_field_add', 'custom_field_remove'];
const FILTERS = ['user', 'action', 'entity', 'ip'] as const;
const PAGE = 50;

/** /system_log/{date}: the day's entries, filterable by user, action, entity and IP; CSV with the export flag. */
export default function SystemLogDay() {
  const { date } = useParams();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const canExport = useCan('system_log', 'export');
  const [draft, setDraft] = useState<Record<string, string>>(() => Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])));
  const [rows, setRows] = useState<LogEntry[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const query = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? undefined]));
  const key = params.toString();
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date ?? '');

  useEffect(() => {
    if (!valid) return;
    setError(null);
    api.get<{ data: LogEntry[]; meta: { total_count: number } }>('/api/system_log', { searchParams: { date, page, limit: PAGE, ...query } })
      .then((r) => { setRows(r.data); setTotal(r.meta.total_count); }, (e) => { setError(e); setRows([]); });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [date, key]);

  if (!valid) return <NotFound />;
  const apply = () => {
    const next = new URLSearchParams();
    for (const f of FILTERS) if (draft[f]) next.set(f, draft[f]!);
    setParams(next);
  };
  const exportCsv = async () => {
    const sp = new URLSearchParams({ date: date! });
    for (const f of FILTERS) if (params.get(f)) sp.set(f, params.get(f)!);
    try { await downloadBlob(`/api/system_log/export?${sp}`, `system_log_${date}.csv`); } catch (e) { toast('error', t('common.error'), errorText(e)); }
  };
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const actionLabel = (a: string) => t(`log.action.${a}`, { defaultValue: a });

  return (
    <section className="bo-page">
      <PageTitle actions={
        <>
          {canExport && <Button label={t('log.export')} icon="pi pi-download" outlined onClick={() => void exportCsv()} />}
          <Link to="/system_log" className="p-button p-button-text">{t('log.back_days')}</Link>
        </>
      }>{`${t('route.system_log')}: ${formatDate(date!, i18n.language)}`}</PageTitle>
      <form className="bo-toolbar" onSubmit={(e) => { e.preventDefault(); apply(); }}>
        <InputText placeholder={t('log.user')} aria-label={t('log.user')} value={draft.user} onChange={(e) => setDraft({ ...draft, user: e.target.value })} />
        <Dropdown placeholder={t('log.action')} aria-label={t('log.action')} value={draft.action || null} showClear options={ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))} onChange={(e) => setDraft({ ...draft, action: (e.value as string) ?? '' })} />
        <InputText placeholder={t('log.entity')} aria-label={t('log.entity')} value={draft.entity} onChange={(e) => setDraft({ ...draft, entity: e.target.value })} />
        <InputText placeholder={t('log.ip')} aria-label={t('log.ip')} value={draft.ip} onChange={(e) => setDraft({ ...draft, ip: e.target.value })} />
        <Button type="submit" label={t('log.filter_apply')} icon="pi pi-filter" />
        <span className="bo-toolbar-spacer" />
        <span className="bo-muted">{total} {t('list.records')}</span>
      </form>
      <ErrorBox error={error} />
      {rows === null ? <Spinner /> : (
        <div className="bo-table-wrap">
          <table className="bo-admin-table" data-testid="log-entries">
            <thead><tr><th>{t('log.time')}</th><th>{t('log.user')}</th><th>{t('log.action')}</th><th>{t('log.entity')}</th><th>{t('log.record')}</th><th>{t('log.ip')}</th><th>{t('log.message')}</th></tr></thead>
            <tbody>
              {rows.length === 0 && <tr><td colSpan={7} className="bo-muted">{t('list.empty')}</td></tr>}
              {rows.map((r) => (
                <tr key={r.id} className="is-link" data-id={r.id} onClick={() => navigate(`/system_log/${date}/${r.id}`)}>
                  <td><a href={`/system_log/${date}/${r.id}`} onClick={(e) => { e.preventDefault(); navigate(`/system_log/${date}/${r.id}`); }}>{new Date(r.created_at).toLocaleTimeString(i18n.language === 'en' ? 'en-GB' : 'th-TH')}</a></td>
                  <td>{r.username ?? '—'}</td>
                  <td className={r.action === 'access_denied' || r.action === 'signin_failed' ? 'bo-warn' : undefined}>{actionLabel(r.action)}</td>
                  <td>{r.entity ?? ''}</td>
                  <td>{r.record_id ?? ''}</td>
                  <td className="bo-mono">{r.ip ?? ''}</td>
                  <td style={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.message ?? (r.changes ? Object.keys(r.changes).join(', ') : '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <div className="bo-pager">
          <Button icon="pi pi-angle-left" text disabled={page <= 1} onClick={() => { const n = new URLSearchParams(params); n.set('page', String(page - 1)); setParams(n); }} aria-label={t('list.prev_page')} />
          <span>{t('list.page')} {page} {t('list.of')} {pages}</span>
          <Button icon="pi pi-angle-right" text disabled={page >= pages} onClick={() => { const n = new URLSearchParams(params); n.set('page', String(page + 1)); setParams(n); }} aria-label={t('list.next_page')} />
        </div>
      )}
    </section>
  );
}
