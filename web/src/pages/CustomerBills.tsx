import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../core/http-client.ts';
import { fetchEntityMeta, type EntityMeta } from '../core/entity-meta.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { formatCell } from '../renderer/format-value.ts';

const COLUMNS = ['bill_no', 'bill_date', 'due_date', 'total_amount', 'status'];

/** The customer portal: the signed-in customer's billing notes (the server restricts the rows). */
export default function CustomerBills() {
  const { t, i18n } = useTranslation();
  const { customerId } = useParams();
  const [rows, setRows] = useState<Array<Record<string, unknown>> | null>(null);
  const [meta, setMeta] = useState<EntityMeta | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchEntityMeta('billing_note').then(setMeta, () => setMeta(null));
    api.get<{ data: Array<Record<string, unknown>> }>('/api/billing_note', { searchParams: { sort: '-bill_date', limit: 500, fields: ['id', ...COLUMNS].join(',') } })
      .then((r) => setRows(r.data), (e: ApiError) => setError(e.message));
  }, []);
  const fields = meta?.entity.fields ?? {};
  return (
    <section className="bo-page">
      <PageTitle>{t('route.customer_bill')}</PageTitle>
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {!rows && !error && <Spinner />}
      {rows && rows.length === 0 && <p className="bo-muted">{t('customer.bills_empty')}</p>}
      {rows && rows.length > 0 && (
        <div className="bo-table-wrap">
          <table className="bo-table" data-testid="customer-bills">
            <thead>
              <tr>{COLUMNS.map((c) => <th key={c} scope="col">{fields[c] ? (i18n.language === 'en' ? fields[c]!.label.en : fields[c]!.label.th) : c}</th>)}</tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={String(r.id)}>
                  {COLUMNS.map((c, i) => (
                    <td key={c} className={fields[c]?.type === 'money' ? 'num' : ''}>
                      {i === 0 ? <Link to={`/customerpage/${customerId}/bill/${String(r.id)}`}>{String(r[c] ?? '')}</Link> : formatCell(fields[c], r[c], i18n.language)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
