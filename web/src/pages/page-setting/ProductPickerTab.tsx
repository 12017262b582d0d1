import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { api } from '../../core/http-client.ts';
import { loc } from '../../core/i18n.ts';
import { toast } from '../../core/toast-bus.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import type { EntitySchema, LinkFilterValue } from '../../../../engine/schema/schema-types.ts';
import { PICKER_COLUMNS_MAX } from '../../../../engine/schema/schema-overlay.ts';
import { bodyFrom, changedProps, draftFrom, type Draft, type PageInfo } from './page-setting-draft.ts';

/**
 * The product picker of a document's lines (quotation, SO, DO, PO, GR, IPT): which
 * products it offers (constant conditions on enum and yes/no fields of the product,
 * enforced by the server as the link's linkFilter) and which product columns each
 * choice shows. Stored as page settings of the lines entity's product_id.
 */
export function ProductPickerTab({ picker, canEdit }: { picker: { entity: string; field: string }; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [info, setInfo] = useState<PageInfo | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [product, setProduct] = useState<EntitySchema | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const take = useCallback((d: PageInfo) => { setInfo(d); setDraft(draftFrom(d)); }, []);

  useEffect(() => {
    api.get<{ data: PageInfo }>(`/api/page_setting/${picker.entity}`).then((r) => take(r.data), setError);
    api.get<{ data: { entity: EntitySchema } }>('/api/meta/entities/product').then((r) => setProduct(r.data.entity), setError);
  }, [picker.entity, take]);

  if (error && (!info || !product)) return <ErrorBox error={error} />;
  if (!info || !draft || !product) return <Spinner />;
  const field = info.fields.find((f) => f.name === picker.field)!;
  const d = draft.fields[picker.field]!;
  const filter = d.linkFilter ?? {};
  const columns = d.pickerColumns ?? [];
  const fixed = new Set(Object.keys(field.file.linkFilter ?? {}));
  const set = (change: Partial<typeof d>) => setDraft({ ...draft, fields: { ...draft.fields, [picker.field]: { ...d, ...change } } });
  const setFilter = (key: string, value: string | boolean | null) => {
    const next: Record<string, LinkFilterValue> = { ...filter };
    if (value === null) delete next[key]; else next[key] = value;
    set({ linkFilter: Object.keys(next).length ? next : null });
  };
  const filterable = Object.entries(product.fields).filter(([n, f]) => (f.type === 'enum' || f.type === 'boolean') && !fixed.has(n));
  const showable = Object.entries(product.fields).filter(([n, f]) => f.type !== 'lines' && f.type !== 'json' && !f.hidden);
  const run = async (work: () => Promise<{ data: PageInfo }>) => {
    setBusy(true); setError(null);
    try { take((await work()).data); toast('success', t('ps.saved')); } catch (e) { setError(e); } finally { setBusy(false); }
  };
  const ro = !canEdit || busy;
  const changed = changedProps(d, field.file).filter((k) => k === 'linkFilter' || k === 'pickerColumns');

  return (
    <div data-testid="ps-picker">
      <p className="bo-muted" style={{ marginTop: 0 }}>{t('ps.picker_intro')} <span className="bo-key">{picker.entity}.{picker.field}</span>
        {changed.length > 0 && <> <span className="bo-ps-changed">{t('ps.changed')}</span></>}</p>
      <ErrorBox error={error} />
      <div className="bo-ps-grid">
        {filterable.map(([n, f]) => {
          const id = `ps-picker-${n}`;
          const current = Object.hasOwn(filter, n) ? String(filter[n]) : '';
          return [
            <label key={`${n}-l`} htmlFor={id}>{loc(f.label, lang)}</label>,
            <select key={`${n}-s`} id={id} disabled={ro} value={current}
              onChange={(e) => setFilter(n, e.target.value === '' ? null : f.type === 'boolean' ? e.target.value === 'true' : e.target.value)}>
              <option value="">{t('ps.picker_any')}</option>
              {f.type === 'boolean'
                ? [<option key="t" value="true">{t('ps.picker_yes')}</option>, <option key="f" value="false">{t('ps.picker_no')}</option>]
                : (f.options ?? []).map((o) => <option key={o.value} value={o.value}>{loc(o.label, lang)}</option>)}
            </select>,
          ];
        })}
        <span>{t('ps.picker_columns', { max: PICKER_COLUMNS_MAX })}</span>
        <div className="bo-ps-columns" role="group" aria-label={t('ps.picker_columns', { max: PICKER_COLUMNS_MAX })}>
          {showable.map(([n, f]) => (
            <label key={n}>
              <input type="checkbox" disabled={ro || (!columns.includes(n) && columns.length >= PICKER_COLUMNS_MAX)} checked={columns.includes(n)}
                onChange={(e) => { const next = e.target.checked ? [...columns, n] : columns.filter((c) => c !== n); set({ pickerColumns: next.length ? next : null }); }} />{' '}
              {loc(f.label, lang)}
            </label>
          ))}
        </div>
      </div>
      {canEdit && (
        <div className="bo-ps-actions">
          {field.overridden.some((p) => p === 'linkFilter' || p === 'pickerColumns') && (
            <Button type="button" icon="pi pi-undo" label={t('ps.reset_field')} severity="danger" outlined disabled={busy}
              onClick={() => void run(() => api.delete(`/api/page_setting/${picker.entity}/${picker.field}`))} data-testid="ps-picker-reset" />
          )}
          <Button type="button" icon="pi pi-check" label={t('common.save')} loading={busy} onClick={() => void run(() => api.put(`/api/page_setting/${picker.entity}`, bodyFrom(draft, info)))} data-testid="ps-picker-save" />
        </div>
      )}
    </div>
  );
}
