import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { api } from '../../core/http-client.ts';
import { loc } from '../../core/i18n.ts';
import { useCan } from '../../core/permissions.ts';
import { toast } from '../../core/toast-bus.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import type { HiddenIn } from '../../../../engine/schema/schema-overlay.ts';
import {
  assignSection, bodyFrom, changedPageProps, changedProps, defaultText, draftFrom, moved, parseDefault, sectionOf,
  type Draft, type FieldInfo, type FieldSettings, type PageInfo,
} from './page-setting-draft.ts';
import { TABS, type Tab } from './page-setting-tabs.ts';
import { ProductPickerTab } from './ProductPickerTab.tsx';
import './page-setting-i18n.ts';
import './page-setting.css';

const HIDDEN: HiddenIn[] = ['none', 'list', 'form', 'both'];
const SORTABLE = (f: FieldInfo) => f.type !== 'lines' && f.type !== 'json';

/**
 * /page_setting/{pageKey}[/{tab}]: one page's settings over its schema file. Each
 * field and the page show what differs from the file; a field or the whole page
 * can be reset. Saving sends only the differences; every open screen follows.
 */
export default function PageSettingEditor({ pageKey, tab: initialTab }: { pageKey: string; tab?: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const canEdit = useCan('page_setting', 'edit');
  const [info, setInfo] = useState<PageInfo | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const tab: Tab = (TABS as readonly string[]).includes(initialTab ?? '') ? initialTab as Tab : 'fields';

  const take = useCallback((data: PageInfo) => { setInfo(data); setDraft(draftFrom(data)); }, []);
  useEffect(() => {
    setInfo(null); setDraft(null); setMissing(false); setError(null);
    api.get<{ data: PageInfo }>(`/api/page_setting/${encodeURIComponent(pageKey)}`)
      .then((r) => take(r.data), (e: { status?: number }) => { if (e.status === 404) setMissing(true); else setError(e); });
  }, [pageKey, take]);

  const byName = useMemo(() => new Map((info?.fields ?? []).map((f) => [f.name, f])), [info]);
  if (missing) return <NotFound />;
  if (!info || !draft) return error ? <section className="bo-page"><ErrorBox error={error} /></section> : <Spinner />;

  const setField = (name: string, change: Partial<FieldSettings>) => setDraft((d) => d && ({ ...d, fields: { ...d.fields, [name]: { ...d.fields[name]!, ...change } } }));
  const setPage = (change: Partial<Draft['page']>) => setDraft((d) => d && ({ ...d, page: { ...d.page, ...change } }));
  const run = async (work: () => Promise<{ data: PageInfo }>) => {
    setBusy(true); setError(null);
    try { take((await work()).data); toast('success', t('ps.saved')); } catch (e) { setError(e); } finally { setBusy(false); }
  };
  const save = () => run(() => api.put(`/api/page_setting/${pageKey}`, bodyFrom(draft, info)));
  const resetField = (name: string) => run(() => api.delete(`/api/page_setting/${pageKey}/${name}`));
  const resetPage = () => { setConfirmReset(false); void run(() => api.delete(`/api/page_setting/${pageKey}`)); };
  const goTab = (next: Tab) => navigate(`/page_setting/${pageKey}${next === 'fields' ? '' : `/${next}`}`);

  const order = draft.page.fieldOrder.filter((n) => byName.has(n));
  const pageChanged = changedPageProps(draft.page, info.page.file);
  const title = `${t('route.page_setting')}: ${loc(info.page.merged.label, lang)}`;
  const ro = !canEdit || busy;

  return (
    <section className="bo-page" data-testid="ps-editor" data-page={pageKey}>
      <PageTitle actions={<Button icon="pi pi-arrow-left" label={t('common.back')} text onClick={() => navigate('/page_setting')} />}>{title}</PageTitle>
      <div className="bo-ps-tabs" role="tablist">
        {TABS.filter((k) => k !== 'picker' || info.productPicker).map((k) => <button key={k} type="button" role="tab" aria-selected={tab === k} onClick={() => goTab(k)} data-testid={`ps-tab-${k}`}>{t(`ps.tab.${k}`)}</button>)}
      </div>
      <ErrorBox error={error} />

      {tab === 'picker' && (info.productPicker ? <ProductPickerTab picker={info.productPicker} canEdit={canEdit} /> : <p className="bo-muted">{t('common.not_found')}</p>)}

      {tab === 'fields' && (
        <div className="bo-table-wrap">
          <table className="bo-admin-table bo-ps-table" data-testid="ps-fields">
            <thead>
              <tr>
                <th>{t('ps.order')}</th><th>{t('ps.field')}</th><th>{t('ps.label_th')}</th><th>{t('ps.label_en')}</th><th>{t('ps.hidden')}</th>
                <th>{t('ps.required')}</th><th>{t('ps.read_only')}</th><th>{t('ps.default')}</th><th>{t('ps.width')}</th><th />
              </tr>
            </thead>
            <tbody>
              {order.map((name, i) => {
                const f = byName.get(name)!;
                const d = draft.fields[name]!;
                const changed = changedProps(d, f.file);
                const stored = f.overridden.length > 0;
                return (
                  <tr key={name} data-field={name} className={changed.length ? 'is-changed' : undefined}>
                    <td className="bo-ps-order">
                      <button type="button" disabled={ro || i === 0} aria-label={`${t('ps.move_up')} ${name}`} onClick={() => setPage({ fieldOrder: moved(order, i, -1) })}><i className="pi pi-arrow-up" /></button>{' '}
                      <button type="button" disabled={ro || i === order.length - 1} aria-label={`${t('ps.move_down')} ${name}`} onClick={() => setPage({ fieldOrder: moved(order, i, 1) })}><i className="pi pi-arrow-down" /></button>
                    </td>
                    <td>
                      <span className="bo-key">{name}</span>
                      {changed.length > 0 && <> <span className="bo-ps-changed" title={`${t('ps.changed')}: ${changed.join(', ')}`} data-testid="ps-changed">{changed.length}</span></>}
                    </td>
                    <td><input type="text" aria-label={`${t('ps.label_th')} ${name}`} value={d.label.th} disabled={ro} onChange={(e) => setField(name, { label: { ...d.label, th: e.target.value } })} /></td>
                    <td><input type="text" aria-label={`${t('ps.label_en')} ${name}`} value={d.label.en} disabled={ro} onChange={(e) => setField(name, { label: { ...d.label, en: e.target.value } })} /></td>
                    <td>
                      <select aria-label={`${t('ps.hidden')} ${name}`} value={d.hidden} disabled={ro} onChange={(e) => setField(name, { hidden: e.target.value as HiddenIn })}>
                        {HIDDEN.map((h) => <option key={h} value={h}>{t(`ps.hidden.${h}`)}</option>)}
                      </select>
                    </td>
                    <td><input type="checkbox" aria-label={`${t('ps.required')} ${name}`} checked={d.required} disabled={ro || f.type === 'lines' || (f.locked.required && d.required)} title={f.locked.required ? t('ps.locked') : undefined} onChange={(e) => setField(name, { required: e.target.checked })} /></td>
                    <td><input type="checkbox" aria-label={`${t('ps.read_only')} ${name}`} checked={d.readOnly} disabled={ro || f.locked.readOnly} title={f.locked.readOnly ? t('ps.locked') : undefined} onChange={(e) => setField(name, { readOnly: e.target.checked })} /></td>
                    <td>
                      {f.type === 'boolean' ? (
                        <select aria-label={`${t('ps.default')} ${name}`} value={d.default === null ? '' : String(d.default)} disabled={ro} onChange={(e) => setField(name, { default: e.target.value === '' ? null : e.target.value === 'true' })}>
                          <option value="">–</option><option value="true">✓</option><option value="false">✗</option>
                        </select>
                      ) : f.options ? (
                        <select aria-label={`${t('ps.default')} ${name}`} value={defaultText(d.default)} disabled={ro} onChange={(e) => setField(name, { default: e.target.value === '' ? null : e.target.value })}>
                          <option value="">–</option>
                          {f.options.map((o) => <option key={o.value} value={o.value}>{loc(o.label, lang)}</option>)}
                        </select>
                      ) : f.type === 'lines' || f.type === 'file' || f.type === 'image' ? <span className="bo-muted">–</span> : (
                        <input type="text" aria-label={`${t('ps.default')} ${name}`} value={defaultText(d.default)} disabled={ro} onChange={(e) => setField(name, { default: parseDefault(f.type, e.target.value) })} />
                      )}
                    </td>
                    <td><input type="number" min={40} max={1000} step={10} aria-label={`${t('ps.width')} ${name}`} value={d.width ?? ''} disabled={ro} onChange={(e) => setField(name, { width: e.target.value === '' ? null : Number(e.target.value) })} /></td>
                    <td>{stored && canEdit && <button type="button" className="bo-ps-icon" disabled={busy} onClick={() => void resetField(name)} aria-label={`${t('ps.reset_field')} ${name}`} title={t('ps.reset_field')}><i className="pi pi-undo" /></button>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {tab === 'list' && (
        <div className="bo-ps-grid" data-testid="ps-list">
          <label htmlFor="ps-label-th">{t('ps.page_label')} (th)</label>
          <input id="ps-label-th" type="text" value={draft.page.label.th} disabled={ro} onChange={(e) => setPage({ label: { ...draft.page.label, th: e.target.value } })} />
          <label htmlFor="ps-label-en">{t('ps.page_label')} (en)</label>
          <input id="ps-label-en" type="text" value={draft.page.label.en} disabled={ro} onChange={(e) => setPage({ label: { ...draft.page.label, en: e.target.value } })} />
          <span>{t('ps.columns')}{pageChanged.includes('listColumns') && <> <span className="bo-ps-changed">{t('ps.changed')}</span></>}</span>
          <div className="bo-ps-columns" role="group" aria-label={t('ps.columns')}>
            {order.filter((n) => SORTABLE(byName.get(n)!)).map((n) => (
              <label key={n}>
                <input type="checkbox" disabled={ro} checked={draft.page.listColumns.includes(n)}
                  onChange={(e) => setPage({ listColumns: e.target.checked ? order.filter((c) => c === n || draft.page.listColumns.includes(c)) : draft.page.listColumns.filter((c) => c !== n) })} />{' '}
                {loc(draft.fields[n]!.label, lang)}
              </label>
            ))}
          </div>
          <label htmlFor="ps-sort">{t('ps.sort')}</label>
          <span>
            <select id="ps-sort" disabled={ro} value={(draft.page.defaultSort ?? '').replace(/^-/, '').split(',')[0]} onChange={(e) => setPage({ defaultSort: e.target.value ? `${draft.page.defaultSort?.startsWith('-') ? '-' : ''}${e.target.value}` : info.page.file.defaultSort })}>
              <option value="">{t('ps.sort_none')}</option>
              {['id', ...order.filter((n) => SORTABLE(byName.get(n)!))].map((n) => <option key={n} value={n}>{n === 'id' ? 'id' : loc(draft.fields[n]!.label, lang)}</option>)}
            </select>{' '}
            <label><input type="checkbox" disabled={ro || !draft.page.defaultSort} checked={!!draft.page.defaultSort?.startsWith('-')}
              onChange={(e) => { const base = (draft.page.defaultSort ?? '').replace(/^-/, ''); setPage({ defaultSort: `${e.target.checked ? '-' : ''}${base}` }); }} /> {t('ps.descending')}</label>
          </span>
          <label htmlFor="ps-page-size">{t('ps.page_size')}</label>
          <input id="ps-page-size" type="number" min={1} max={500} disabled={ro} value={draft.page.pageSize ?? ''} onChange={(e) => setPage({ pageSize: e.target.value === '' ? null : Number(e.target.value) })} />
        </div>
      )}

      {tab === 'form' && (
        <div data-testid="ps-form">
          {draft.page.formSections.length === 0 && <p className="bo-muted">{t('ps.no_sections')}</p>}
          {draft.page.formSections.map((s, i) => (
            <div key={i} className="bo-ps-section" data-section={s.key}>
              <div className="bo-ps-section-head">
                <input type="text" aria-label={t('ps.section_key')} value={s.key} disabled={ro} size={12} onChange={(e) => setPage({ formSections: draft.page.formSections.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)) })} />
                <input type="text" aria-label={`${t('ps.label_th')} ${s.key}`} value={s.label.th} disabled={ro} onChange={(e) => setPage({ formSections: draft.page.formSections.map((x, j) => (j === i ? { ...x, label: { ...x.label, th: e.target.value } } : x)) })} />
                <input type="text" aria-label={`${t('ps.label_en')} ${s.key}`} value={s.label.en} disabled={ro} onChange={(e) => setPage({ formSections: draft.page.formSections.map((x, j) => (j === i ? { ...x, label: { ...x.label, en: e.target.value } } : x)) })} />
                <select aria-label={`${t('ps.section_columns')} ${s.key}`} value={s.columns ?? 2} disabled={ro} onChange={(e) => setPage({ formSections: draft.page.formSections.map((x, j) => (j === i ? { ...x, columns: Number(e.target.value) as 1 | 2 | 3 } : x)) })}>
                  {[1, 2, 3].map((n) => <option key={n} value={n}>{n}</option>)}
                </select>
                <button type="button" className="bo-ps-icon" disabled={ro || i === 0} aria-label={`${t('ps.move_up')} ${s.key}`} onClick={() => setPage({ formSections: moved(draft.page.formSections, i, -1) })}><i className="pi pi-arrow-up" /></button>
                <button type="button" className="bo-ps-icon" disabled={ro || i === draft.page.formSections.length - 1} aria-label={`${t('ps.move_down')} ${s.key}`} onClick={() => setPage({ formSections: moved(draft.page.formSections, i, 1) })}><i className="pi pi-arrow-down" /></button>
                <button type="button" className="bo-ps-icon" disabled={ro} aria-label={`${t('ps.remove_section')} ${s.key}`} onClick={() => setPage({ formSections: draft.page.formSections.filter((_, j) => j !== i) })}><i className="pi pi-trash" /></button>
              </div>
              <p className="bo-muted" style={{ margin: '6px 0 0' }}>{s.fields.map((n) => loc(draft.fields[n]?.label, lang) || n).join(' · ') || '–'}</p>
            </div>
          ))}
          <Button type="button" icon="pi pi-plus" label={t('ps.add_section')} outlined size="small" disabled={ro}
            onClick={() => setPage({ formSections: [...draft.page.formSections, { key: `section_${draft.page.formSections.length + 1}`, label: { th: `ส่วนที่ ${draft.page.formSections.length + 1}`, en: `Section ${draft.page.formSections.length + 1}` }, fields: [], columns: 2 }] })} />
          {draft.page.formSections.length > 0 && (
            <table className="bo-admin-table bo-ps-table" style={{ marginTop: 12 }}>
              <thead><tr><th>{t('ps.field')}</th><th>{t('ps.section_of_field')}</th></tr></thead>
              <tbody>
                {order.map((n) => (
                  <tr key={n}>
                    <td>{loc(draft.fields[n]!.label, lang)} <span className="bo-key">{n}</span></td>
                    <td>
                      <select aria-label={`${t('ps.section_of_field')} ${n}`} disabled={ro} value={sectionOf(draft.page.formSections, n)} onChange={(e) => setPage({ formSections: assignSection(draft.page.formSections, n, e.target.value) })}>
                        <option value="">{t('ps.section_none')}</option>
                        {draft.page.formSections.map((s) => <option key={s.key} value={s.key}>{loc(s.label, lang) || s.key}</option>)}
                      </select>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}

      {canEdit && tab !== 'picker' && (
        <div className="bo-ps-actions">
          {(info.page.overridden.length > 0 || info.fields.some((f) => f.overridden.length > 0)) && (
            <Button type="button" icon="pi pi-undo" label={t('ps.reset_page')} severity="danger" outlined disabled={busy} onClick={() => setConfirmReset(true)} data-testid="ps-reset-page" />
          )}
          <Button type="button" icon="pi pi-check" label={t('common.save')} loading={busy} onClick={() => void save()} data-testid="ps-save" />
        </div>
      )}
      <ConfirmDialog visible={confirmReset} message={t('ps.reset_page_confirm')} confirmLabel={t('ps.reset')} busy={busy} onConfirm={resetPage} onCancel={() => setConfirmReset(false)} />
    </section>
  );
}
