import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { api } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox, formatDate } from '../admin/admin-common.tsx';
import { useEntitySchema } from '../../core/use-entity-schema.ts';
import { loc } from '../../core/i18n.ts';
import { DateInput } from '../../renderer/fields/DateInput.tsx';
import './stock-i18n.ts';

type Movement = Record<string, unknown> & { id: number; qty: number; doc_path: string | null };
interface Inventory { id: number; name: string; code: string }

/** Today in the business's time zone (Asia/Bangkok), as the ledger dates documents. */
function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Bangkok' }).format(new Date());
}
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * /incoming and /outgoing: the day's movements into or out of stock, read
 * from the ledger (`GET /api/stock/movements`) under the caller's inventories,
 * each linked to the document that made it.
 */
export default function MovementsPage({ direction, entity }: { direction: 'in' | 'out'; entity: string }) {
  const { t, i18n } = useTranslation();
  const [date, setDate] = useState(today);
  const [inventory, setInventory] = useState('');
  const [inventories, setInventories] = useState<Inventory[]>([]);
  const [rows, setRows] = useState<Movement[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);

  // the ledger's schema (the screen entry's entity): its movement types, and the inventories its inventory_id links to
  const schema = useEntitySchema(entity);
  const inventoryEntity = schema.status === 'ready' ? schema.meta.entity.fields.inventory_id?.entity : undefined;
  useEffect(() => {
    if (!inventoryEntity) return;
    api.get<{ data: Inventory[] }>(`/api/${inventoryEntity}`, { searchParams: { fields: 'id,code,name', limit: 500, sort: 'code' } }).then((r) => setInventories(r.data), () => setInventories([]));
  }, [inventoryEntity]);
  useEffect(() => {
    setRows(null);
    setError(null);
    api.get<{ data: Movement[]; total: number }>('/api/stock/movements', { searchParams: { direction, date, inventory_id: inventory } })
      .then((r) => { setRows(r.data); setTotal(r.total); }, (e) => { setError(e); setRows([]); });
  }, [direction, date, inventory]);

  // movement types read in the schema's own labels (Thai or English)
  const typeOptions = schema.status === 'ready' ? schema.meta.entity.fields.movement_type?.options ?? [] : [];
  const typeLabel = (v: unknown) => { const o = typeOptions.find((x) => x.value === v); return o ? loc(o.label, i18n.language) : String(v ?? ''); };
  const sum = (rows ?? []).reduce((n, r) => n + Number(r.qty), 0);
  const title = direction === 'in' ? t('route.incoming') : t('route.outgoing');
  return (
    <section className="bo-page" data-testid={`movements-${direction}`}>
      <PageTitle>{title}</PageTitle>
      <p className="bo-muted" style={{ marginTop: 0 }}>{direction === 'in' ? t('stock.incoming_hint') : t('stock.outgoing_hint')}</p>
      <div className="bo-toolbar">
        <Button icon="pi pi-angle-left" text onClick={() => setDate(shift(date, -1))} aria-label={t('stock.prev_day')} />
        <label data-testid="movement-date" data-value={date}>{t('stock.date')} <DateInput value={date} lang={i18n.language} ariaLabel={t('stock.date')} onChange={(v) => { if (v) setDate(v); }} /></label>
        <Button icon="pi pi-angle-right" text onClick={() => setDate(shift(date, 1))} aria-label={t('stock.next_day')} />
        <Button label={t('stock.today')} text onClick={() => setDate(today())} />
        <span className="bo-muted">{formatDate(date, i18n.language)}</span>
        <span className="bo-toolbar-spacer" />
        <label>{t('stock.inventory')}{' '}
          <select className="p-inputtext p-component" value={inventory} onChange={(e) => setInventory(e.target.value)} data-testid="movement-inventory">
            <option value="">{t('stock.all_inventories')}</option>
            {inventories.map((i) => <option key={i.id} value={i.id}>{i.code} {i.name}</option>)}
          </select>
        </label>
      </div>
      <ErrorBox error={error} />
      {rows === null ? <Spinner /> : (
        <div className="bo-table-wrap">
          <table className="bo-admin-table" data-testid="movements">
            <thead>
              <tr>
                <th>{t('stock.date')}</th><th>{t('stock.document')}</th><th>{t('stock.type')}</th><th>{t('stock.product')}</th>
                <th>{t('stock.inventory')}</th><th>{t('stock.lot')}</th><th>{t('stock.expiry')}</th><th className="bo-num">{t('stock.qty')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && <tr><td colSpan={8} className="bo-muted">{t('list.empty')}</td></tr>}
              {rows.map((r) => (
                <tr key={r.id} data-movement={r.id}>
                  <td>{formatDate(String(r.business_date ?? r.movement_date).slice(0, 10), i18n.language)}</td>
                  <td>{r.doc_path ? <Link to={r.doc_path}>{String(r.ref_doc ?? r.doc_path)}</Link> : <span className="bo-muted">{String(r.note ?? t('stock.type'))}</span>}</td>
                  <td>{typeLabel(r.movement_type)}</td>
                  <td>{String(r['product_id.code'] ?? r.product_id)} {String(r['product_id.name_th'] ?? '')}</td>
                  <td>{String(r['inventory_id.name'] ?? r.inventory_id)}</td>
                  <td>{String(r.lot_no ?? '')}</td>
                  <td>{String(r.expiry_date ?? '')}</td>
                  <td className="bo-num">{Number(r.qty).toLocaleString(i18n.language === 'en' ? 'en-GB' : 'th-TH', { maximumFractionDigits: 4 })} {String(r['product_id.unit'] ?? '')}</td>
                </tr>
              ))}
            </tbody>
            {rows.length > 0 && (
              <tfoot><tr><td colSpan={7}>{t('stock.total')}{total > rows.length ? ` (${t('stock.more_rows', { shown: rows.length, total })})` : ''}</td><td className="bo-num" data-testid="movements-total">{sum.toLocaleString(i18n.language === 'en' ? 'en-GB' : 'th-TH', { maximumFractionDigits: 4 })}</td></tr></tfoot>
            )}
          </table>
        </div>
      )}
    </section>
  );
}
