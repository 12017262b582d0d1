import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../core/http-client.ts';
import { fetchEntityMeta, type EntityMeta } from '../core/entity-meta.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { formatCell, isNumeric } from '../renderer/format-value.ts';
import { useAtomValue } from 'jotai';
import { isCustomer, sessionAtom } from '../core/session-atoms.ts';

const COLUMNS = ['bill_no', 'bill_date', 'due_date', 'total_amount', 'status'];

/** The customer portal: the signed-in customer's billing notes (the server restricts the rows); `entity`: the portal's, from schemas/screens/screens.json. */
export default function CustomerBills({ entity }: { entity: string }) {
  const { t, i18n } = useTranslation();
  const { customerId } = useParams();
  const [rows, setRows] = useState<Array<Record<string, unknown>> | null>(null);
  const [meta, setMeta] = useState<EntityMeta | null>(null);
  const [error, setError] = useState<string | null>(null);
  const customer = isCustomer(useAtomValue(sessionAtom));
  useEffect(() => {
    fetchEntityMeta(entity).then(setMeta, () => setMeta(null));
    // the path's customer: a customer's own rows are limited by the server anyway, staff see that customer's bills
    const filter = !customer && /^[1-9][0-9]*$/.test(customerId ?? '') ? JSON.stringify({ customer_id: { _eq: Number(customerId) } }) : undefined;
    api.get<{ data: Array<Record<string, unknown>> }>(`/api/${entity}`, { searchParams: { sort: '-bill_date', limit: 500, fields: ['id', ...COLUMNS].join(','), filter } })
      .then((r) => setRows(r.data), (e: ApiError) => setError(e.message));
  }, [entity, customerId, customer]);
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
              <tr>{COLUMNS.map((c) => <th key={c} scope="col" className={isNumeric(fields[c]) ? 'bo-num-cell' : undefined}>{fields[c] ? (i18n.language === 'en' ? fields[c]!.label.en : fields[c]!.label.th) : c}</th>)}</tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={String(r.id)}>
                  {COLUMNS.map((c, i) => (
                    <td key={c} className={isNumeric(fields[c]) ? 'bo-num-cell' : ''}>
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
