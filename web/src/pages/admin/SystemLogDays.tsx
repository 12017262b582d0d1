import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { api } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox, formatDate } from './admin-common.tsx';

interface Day { date: string; total: number; signins: number; failed_signins: number; writes: number; refused: number }
const PAGE = 31;

/** /system_log: one row per day, newest first, with its sign-ins, writes and refused accesses. */
export default function SystemLogDays() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [days, setDays] = useState<Day[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    setError(null);
    api.get<{ data: Day[]; meta: { total_count: number } }>('/api/system_log/days', { searchParams: { page, limit: PAGE } })
      .then((r) => { setDays(r.data); setTotal(r.meta.total_count); }, (e) => { setError(e); setDays([]); });
  }, [page]);

  const pages = Math.max(1, Math.ceil(total / PAGE));
  return (
    <section className="bo-page">
      <PageTitle>{t('route.system_log')}</PageTitle>
      <p className="bo-muted" style={{ marginTop: 0 }}>{t('log.append_only')}</p>
      <ErrorBox error={error} />
      {days === null ? <Spinner /> : (
        <div className="bo-table-wrap">
          <table className="bo-admin-table" data-testid="log-days">
            <thead>
              <tr>
                <th>{t('log.date')}</th><th className="bo-num">{t('log.signins')}</th><th className="bo-num">{t('log.failed_signins')}</th>
                <th className="bo-num">{t('log.writes')}</th><th className="bo-num">{t('log.refused')}</th><th className="bo-num">{t('log.total')}</th>
              </tr>
            </thead>
            <tbody>
              {days.length === 0 && <tr><td colSpan={6} className="bo-muted">{t('list.empty')}</td></tr>}
              {days.map((d) => (
                <tr key={d.date} className="is-link" onClick={() => navigate(`/system_log/${d.date}`)} data-date={d.date}>
                  <td><a href={`/system_log/${d.date}`} onClick={(e) => { e.preventDefault(); navigate(`/system_log/${d.date}`); }}>{formatDate(d.date, i18n.language)}</a> <span className="bo-key bo-muted">{d.date}</span></td>
                  <td className="bo-num">{d.signins}</td>
                  <td className={`bo-num${d.failed_signins ? ' bo-warn' : ''}`}>{d.failed_signins}</td>
                  <td className="bo-num">{d.writes}</td>
                  <td className={`bo-num${d.refused ? ' bo-warn' : ''}`}>{d.refused}</td>
                  <td className="bo-num">{d.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <div className="bo-pager">
          <Button icon="pi pi-angle-left" text disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label={t('list.prev_page')} />
          <span>{t('list.page')} {page} {t('list.of')} {pages}</span>
          <Button icon="pi pi-angle-right" text disabled={page >= pages} onClick={() => setPage(page + 1)} aria-label={t('list.next_page')} />
        </div>
      )}
    </section>
  );
}
