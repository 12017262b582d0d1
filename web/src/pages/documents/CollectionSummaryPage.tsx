import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { formatMoney } from './money-format.ts';
import { DateInput } from '../../renderer/fields/DateInput.tsx';
import './finance-i18n.ts';

const BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'over_90'] as const;
type Bucket = typeof BUCKETS[number];

interface Figures { bills: number; billed: number; received: number; withheld: number; outstanding: number; ageing: Record<Bucket, number> }
interface CustomerRow extends Figures { customer_id: number; customer_name: string | null }
interface Summary { from: string | null; to: string; customers: CustomerRow[]; totals: Figures }

const MONEY_COLUMNS = ['billed', 'received', 'withheld', 'outstanding'] as const;

/** First day of the month a year before `to`: the default period is the last twelve months. */
function yearBefore(to: string): string {
  const [y, m] = to.split('-').map(Number) as [number, number];
  return `${y - 1}-${String(m).padStart(2, '0')}-01`;
}

/**
 * Billed, received and outstanding per customer for a period, with the open
 * amounts aged by due date (GET /api/report/collection_summary): the figures are
 * the server's, computed exactly; this screen only lays them out, money right-aligned.
 */
export default function CollectionSummaryPage({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation();
  const [to, setTo] = useState('');
  const [from, setFrom] = useState('');
  const [data, setData] = useState<Summary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    setLoading(true);
    setError(null);
    const searchParams: Record<string, string> = {};
    if (from) searchParams.from = from;
    if (to) searchParams.to = to;
    api.get<{ data: Summary }>('/api/report/collection_summary', { searchParams }).then((r) => {
      setData(r.data);
      // the first answer says what "today" is in the business's time zone: the period starts from it
      if (!to) { setTo(r.data.to); setFrom(yearBefore(r.data.to)); }
    }, (e: ApiError) => setError(e.message)).finally(() => setLoading(false));
  }, [from, to]);

  const figures = (f: Figures) => [
    <td key="bills" className="bo-num-cell">{f.bills}</td>,
    ...MONEY_COLUMNS.map((k) => <td key={k} className="bo-num-cell" data-col={k}>{formatMoney(f[k])}</td>),
    ...BUCKETS.map((b) => <td key={b} className="bo-num-cell" data-col={b}>{formatMoney(f.ageing[b])}</td>),
  ];

  return (
    <section className="bo-page" data-testid="collection-summary">
      <PageTitle>{t(titleKey)}</PageTitle>
      <div>
        {/* the app's own date picker (Buddhist-era years in Thai), not the browser's, whose format follows the machine */}
        <label className="bo-picker" data-testid="collection-from" data-value={from}><span>{t('collection.from')}</span>
          <DateInput value={from} lang={i18n.language} ariaLabel={t('collection.from')} onChange={(v) => setFrom(v && to && v > to ? to : v)} /></label>
        <label className="bo-picker" data-testid="collection-to" data-value={to}><span>{t('collection.to')}</span>
          <DateInput value={to} lang={i18n.language} ariaLabel={t('collection.to')} onChange={(v) => { if (v) setTo(v); }} /></label>
      </div>
      <p className="bo-muted">{t('collection.ageing_note')}</p>
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {!data && !error && <Spinner />}
      {data && data.customers.length === 0 && <p className="bo-muted">{t('collection.empty')}</p>}
      {data && data.customers.length > 0 && (
        <div className={`bo-table-wrap${loading ? ' is-loading' : ''}`}>
          <table className="bo-table bo-collection-table" data-testid="collection-table">
            <thead>
              <tr>
                <th scope="col">{t('collection.customer')}</th>
                <th scope="col" className="bo-num-cell">{t('collection.bills')}</th>
                {MONEY_COLUMNS.map((k) => <th key={k} scope="col" className="bo-num-cell">{t(`collection.${k}`)}</th>)}
                {BUCKETS.map((b) => <th key={b} scope="col" className="bo-num-cell">{t(`collection.${b}`)}</th>)}
              </tr>
            </thead>
            <tbody>
              {data.customers.map((c) => (
                <tr key={c.customer_id} data-customer={c.customer_id}>
                  <td><Link to={`/customer/${c.customer_id}`}>{c.customer_name ?? String(c.customer_id)}</Link></td>
                  {figures(c)}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-testid="collection-totals">
                <td>{t('collection.total')}</td>
                {figures(data.totals)}
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
