import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { ErrorBox, formatDate, formatDateTime } from './admin-common.tsx';
import type { LogEntry } from './SystemLogDay.tsx';

function show(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 2);
}

/** /system_log/{date}/{id}: one entry, with the changed fields side by side, before and after. */
export default function SystemLogEntry() {
  const { date, id } = useParams();
  const { t, i18n } = useTranslation();
  const [entry, setEntry] = useState<LogEntry | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    if (!/^[1-9][0-9]*$/.test(id ?? '')) { setMissing(true); return; }
    api.get<{ data: LogEntry }>(`/api/system_log/${id}`).then((r) => {
      if (r.data.log_date !== date) setMissing(true);
      else setEntry(r.data);
    }, (e) => { if ((e as { status?: number }).status === 404) setMissing(true); else setError(e); });
  }, [date, id]);

  if (missing) return <NotFound />;
  if (!entry) return error ? <section className="bo-page"><ErrorBox error={error} /></section> : <Spinner />;
  const changes = Object.entries(entry.changes ?? {});
  const meta: [string, string][] = [
    [t('log.time'), formatDateTime(entry.created_at, i18n.language)],
    [t('log.user'), entry.username ?? '—'],
    [t('log.action'), t(`log.action.${entry.action}`, { defaultValue: entry.action })],
    [t('log.entity'), entry.entity ?? '—'],
    [t('log.record'), entry.record_id ?? '—'],
    [t('log.ip'), entry.ip ?? '—'],
    [t('log.message'), entry.message ?? '—'],
  ];
  return (
    <section className="bo-page">
      <PageTitle actions={<Link to={`/system_log/${date}`} className="p-button p-button-text">{t('log.back_day', { date: formatDate(date!, i18n.language) })}</Link>}>
        {`${t('route.system_log')} #${entry.id}`}
      </PageTitle>
      <div className="bo-admin-sections">
        <div className="bo-card">
          <table className="bo-admin-table" data-testid="log-entry"><tbody>{meta.map(([k, v]) => <tr key={k}><th style={{ width: 180 }}>{k}</th><td>{v}</td></tr>)}</tbody></table>
        </div>
        <div className="bo-card">
          <h2>{t('log.changes')}</h2>
          {changes.length === 0 ? <p className="bo-muted">{t('log.no_changes')}</p> : (
            <table className="bo-admin-table" data-testid="log-changes">
              <thead><tr><th>{t('log.field')}</th><th>{t('log.before')}</th><th>{t('log.after')}</th></tr></thead>
              <tbody>
                {changes.map(([field, pair]) => (
                  <tr key={field} data-field={field}>
                    <td className="bo-mono">{field}</td>
                    <td className="bo-diff-before">{show(Array.isArray(pair) ? pair[0] : null)}</td>
                    <td className="bo-diff-after">{show(Array.isArray(pair) ? pair[1] : pair)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </section>
  );
}
