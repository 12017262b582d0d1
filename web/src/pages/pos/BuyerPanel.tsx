import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';

type Row = Record<string, any>;

/** The buyer of a full tax invoice (ใบกำกับภาษีเต็มรูป) as the sale route takes it. */
export interface Buyer { buyer_name: string; buyer_tax_id: string; buyer_branch_code: string; buyer_address: string }

const addressOf = (c: Row) => ['address_line', 'sub_district', 'district', 'province', 'postal_code'].map((k) => c[k]).filter((v) => v !== null && v !== undefined && v !== '').join(' ');

/**
 * A full tax invoice at the register (issue 51 §2): the buyer's name, tax id, branch and address, picked from the
 * customers (search by name, code or tax id) or typed. The server requires name, tax id and branch and issues
 * the full form's own number series.
 */
export function BuyerPanel({ buyer, onSave, onCancel }: { buyer: Buyer | null; onSave: (b: Buyer | null) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [b, setB] = useState<Buyer>(buyer ?? { buyer_name: '', buyer_tax_id: '', buyer_branch_code: '00000', buyer_address: '' });
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<Row[]>([]);
  const valid = b.buyer_name.trim() !== '' && /^\d{13}$/.test(b.buyer_tax_id.trim()) && /^\d{5}$/.test(b.buyer_branch_code.trim());
  const field = (k: keyof Buyer, label: string) => (
    <label className="bo-pos-field">{label}
      <input className="p-inputtext p-component" value={b[k]} data-testid={`pos-${k.replace(/_/g, '-')}`} onChange={(e) => setB({ ...b, [k]: e.target.value })} />
    </label>
  );
  const find = async () => {
    if (!search.trim()) return;
    const r = await api.get<{ data: Row[] }>('/api/customer', { searchParams: { search: search.trim(), fields: 'id,code,name_th,tax_id,branch_code,address_line,sub_district,district,province,postal_code', limit: 8 } }).catch(() => ({ data: [] as Row[] }));
    setFound(r.data);
  };
  return (
    <div className="bo-pos-modal" role="dialog" aria-modal="true" aria-label={t('pos.full_invoice')} data-testid="pos-buyer-panel" onKeyDown={(e) => { if (e.key === 'Escape') onCancel(); }}>
      <div className="bo-pos-modal-body">
        <h2>{t('pos.full_invoice')}</h2>
        <div className="bo-pos-row">
          <input className="p-inputtext p-component" placeholder={t('pos.find_customer')} aria-label={t('pos.find_customer')} value={search} autoFocus data-testid="pos-buyer-search"
            onChange={(e) => setSearch(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void find(); } }} />
          <button type="button" className="bo-pos-key" onClick={() => { void find(); }}>{t('pos.find')}</button>
        </div>
        {found.length > 0 && (
          <ul className="bo-pos-rows">
            {found.map((c) => (
              <li key={c.id}><button type="button" className="bo-pos-key" data-testid="pos-buyer-choice"
                onClick={() => { setB({ buyer_name: String(c.name_th ?? ''), buyer_tax_id: String(c.tax_id ?? ''), buyer_branch_code: String(c.branch_code ?? '00000'), buyer_address: addressOf(c) }); setFound([]); }}>
                {c.code} {c.name_th}</button></li>
            ))}
          </ul>
        )}
        {field('buyer_name', t('pos.buyer_name'))}
        {field('buyer_tax_id', t('pos.buyer_tax_id'))}
        {field('buyer_branch_code', t('pos.buyer_branch'))}
        {field('buyer_address', t('pos.buyer_address'))}
        {!valid && <p className="bo-muted">{t('pos.buyer_rules')}</p>}
        <div className="bo-pos-actions">
          {buyer && <button type="button" className="bo-pos-key" onClick={() => onSave(null)} data-testid="pos-buyer-clear">{t('pos.buyer_clear')}</button>}
          <button type="button" className="bo-pos-key" onClick={onCancel}>{t('pos.back_to_sale')}</button>
          <button type="button" className="bo-pos-key bo-pos-primary" disabled={!valid} onClick={() => onSave({ buyer_name: b.buyer_name.trim(), buyer_tax_id: b.buyer_tax_id.trim(), buyer_branch_code: b.buyer_branch_code.trim(), buyer_address: b.buyer_address.trim() })} data-testid="pos-buyer-save">{t('pos.buyer_save')}</button>
        </div>
      </div>
    </div>
  );
}
