import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../core/http-client.ts';
import { fetchEntityMeta, type EntityMeta } from '../core/entity-meta.ts';
import { loc } from '../core/i18n.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { formatCell, isNumeric } from '../renderer/format-value.ts';
import { CustomerBillPdf } from './CustomerBillPdf.tsx';
import { CustomerBillQr } from './CustomerBillQr.tsx';

/** One billing note of the signed-in customer, read-only, with its view-only PDF copy. */
export default function CustomerBill({ entity }: { entity: string }) {
  const { t, i18n } = useTranslation();
  const { customerId, id } = useParams();
  const [row, setRow] = useState<Record<string, unknown> | null>(null);
  const [meta, setMeta] = useState<EntityMeta | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchEntityMeta(entity).then((m) => {
      setMeta(m);
      // links show their target's name where the customer may read it; other links are left out, never shown as raw ids
      const names = Object.entries(m.entity.fields).flatMap(([n, f]) => {
        if (f.type === 'lines') return [n];
        if (f.type !== 'link') return [n];
        return f.displayField && m.readable?.includes(f.entity!) ? [n, `${n}.${f.displayField}`] : [];
      });
      return api.get<{ data: Record<string, unknown> }>(`/api/${entity}/${id}?fields=${encodeURIComponent(names.join(','))}`).then((r) => setRow(r.data));
    }).catch((e: ApiError) => setError(e.message));
  }, [entity, id]);
  const fields = Object.fromEntries(Object.entries(meta?.entity.fields ?? {}).filter(([n, f]) => f.type !== 'link' || (row && `${n}.${f.displayField}` in row)));
  const shown = (name: string, f: (typeof fields)[string]) => (f.type === 'link' ? row?.[`${name}.${f.displayField}`] : row?.[name]);
  const lines = meta && row ? Object.entries(fields).filter(([, f]) => f.type === 'lines') : [];
  return (
    <section className="bo-page">
      <PageTitle actions={<Link to={`/customerpage/${customerId}/bill`} className="p-button p-button-outlined p-button-sm">{t('common.back')}</Link>}>
        {`${meta ? loc(meta.entity.label, i18n.language) : ''} ${row ? String(row.bill_no ?? '') : ''}`}
      </PageTitle>
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {!row && !error && <Spinner />}
      {row && (
        <dl className="bo-readonly">
          {Object.entries(fields).filter(([, f]) => f.type !== 'lines').map(([name, f]) => (
            <div key={name} className={isNumeric(f) ? 'bo-num-item' : undefined}><dt>{loc(f.label, i18n.language)}</dt><dd>{(f.type === 'link' ? String(shown(name, f) ?? '') : formatCell(f, row[name], i18n.language)) || '—'}</dd></div>
          ))}
        </dl>
      )}
      {row && lines.map(([name, f]) => {
        const child = meta!.related[f.entity!];
        const items = (row[name] as Array<Record<string, unknown>>) ?? [];
        const cols = child ? Object.entries(child.fields).filter(([, cf]) => cf.type !== 'lines' && !cf.hidden) : [];
        return (
          <div key={name} className="bo-table-wrap">
            <h2 className="bo-section-title">{loc(f.label, i18n.language)}</h2>
            <table className="bo-table">
              <thead><tr>{cols.map(([c, cf]) => <th key={c} scope="col" className={isNumeric(cf) ? 'bo-num-cell' : undefined}>{loc(cf.label, i18n.language)}</th>)}</tr></thead>
              <tbody>{items.map((it, i) => <tr key={i}>{cols.map(([c, cf]) => <td key={c} className={isNumeric(cf) ? 'bo-num-cell' : undefined}>{formatCell(cf, it[c], i18n.language)}</td>)}</tr>)}</tbody>
            </table>
          </div>
        );
      })}
      {row && id && <CustomerBillQr entity={entity} id={id} />}
      {row && customerId && id && <CustomerBillPdf customerId={customerId} id={id} />}
    </section>
  );
}
