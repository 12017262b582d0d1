import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { api } from '../../core/http-client.ts';
import { toast } from '../../core/toast-bus.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import { nameOf, pageOfKind, pageOfPath, type AttributeRow, type ListedAttribute, type OptionRow } from './attribute-kinds.ts';
import './attribute-i18n.ts';

/**
 * /{page}/{submenuDetailId} and /attribute_option/{attributeId}: one attribute with its options,
 * how many products use each, a form to add an option and a delete that the server refuses
 * (IN_USE, with the count) while products still use the option.
 */
export default function AttributeDetail({ entity }: { entity?: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.submenuDetailId ?? params.attributeId);
  const routePage = pageOfPath(useLocation().pathname);
  const [attr, setAttr] = useState<AttributeRow | null>(null);
  const [options, setOptions] = useState<OptionRow[] | null>(null);
  // null until the usage answer arrives, so counts never fill in after the table shows; 'unknown'
  // when the user may not view products. The answer lists active options only: an inactive one
  // (or any of an inactive attribute) shows no count rather than a 0 it does not know
  const [used, setUsed] = useState<Record<number, number> | 'unknown' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);
  const [draft, setDraft] = useState({ code: '', name_th: '', name_en: '' });
  // the options' own route (/attribute_option/{id}: its screen entry names the entity) shows the page of the attribute's kind
  const page = entity !== undefined && routePage === entity && attr ? pageOfKind(attr.kind) : routePage;

  useEffect(() => {
    api.get<{ data: AttributeRow }>(`/api/product_attribute/${id}`).then((r) => setAttr(r.data), setError);
  }, [id]);
  useEffect(() => {
    api.get<{ data: OptionRow[] }>('/api/attribute_option', { searchParams: { filter: JSON.stringify({ attribute_id: { _eq: id } }), sort: 'sort_order,code', limit: 500 } })
      .then((r) => setOptions(r.data), (e) => { setError(e); setOptions([]); });
    api.get<{ data: ListedAttribute[] }>('/api/product/attribute/list')
      .then((r) => setUsed(Object.fromEntries((r.data.find((a) => a.id === id)?.options ?? []).map((o) => [o.id, o.product_ids.length]))), () => setUsed('unknown'));
  }, [id, reload]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await api.post('/api/attribute_option', { ...draft, name_en: draft.name_en || null, attribute_id: id, sort_order: options?.length ?? 0 });
      setDraft({ code: '', name_th: '', name_en: '' });
      setReload((n) => n + 1);
    } catch (err) { setError(err); }
  };
  const remove = async (o: OptionRow) => {
    setError(null);
    try {
      await api.delete(`/api/attribute_option/${o.id}`);
      toast('success', t('common.deleted'));
      setReload((n) => n + 1);
    } catch (err) { setError(err); }
  };

  return (
    <section className="bo-page" data-testid="attribute-detail-page">
      <PageTitle>{attr ? `${t(`route.${page}`)}: ${nameOf(attr, lang)}` : t(`route.${page}`)}</PageTitle>
      <div className="bo-admin-row" style={{ marginBottom: 12 }}>
        <Button icon="pi pi-arrow-left" label={t('attr.back')} text onClick={() => navigate(`/${page}`)} />
        <Button icon="pi pi-pencil" label={t('attr.edit_attribute')} outlined onClick={() => navigate(`/product_attribute/${id}`)} />
      </div>
      <ErrorBox error={error} />
      {options === null || used === null ? <Spinner /> : (
        <div className="bo-table-wrap">
          <table className="bo-admin-table" data-testid="option-table">
            <thead><tr><th>{t('attr.sort_order')}</th><th>{t('attr.code')}</th><th>{t('attr.name_th')}</th><th>{t('attr.name_en')}</th><th className="bo-num">{t('attr.product_count')}</th><th /></tr></thead>
            <tbody>
              {options.length === 0 && <tr><td colSpan={6} className="bo-muted">{t('list.empty')}</td></tr>}
              {options.map((o) => (
                <tr key={o.id} data-code={o.code}>
                  <td>{o.sort_order}</td>
                  <td><a href={`/${page}/${id}/${o.id}`} onClick={(e) => { e.preventDefault(); navigate(`/${page}/${id}/${o.id}`); }}>{o.code}</a></td>
                  <td>{o.name_th}</td><td>{o.name_en ?? ''}</td>
                  <td className="bo-num">{used === 'unknown' || !(o.id in used) ? '' : used[o.id]}</td>
                  <td><Button icon="pi pi-trash" text severity="danger" aria-label={`${t('common.delete')} ${o.code}`} onClick={() => void remove(o)} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="bo-admin-row" onSubmit={add} style={{ marginTop: 16 }} aria-label={t('attr.add_option')}>
        <label className="bo-field"><span>{t('attr.code')}</span><InputText name="code" value={draft.code} onChange={(e) => setDraft({ ...draft, code: e.target.value })} required /></label>
        <label className="bo-field"><span>{t('attr.name_th')}</span><InputText name="name_th" value={draft.name_th} onChange={(e) => setDraft({ ...draft, name_th: e.target.value })} required /></label>
        <label className="bo-field"><span>{t('attr.name_en')}</span><InputText name="name_en" value={draft.name_en} onChange={(e) => setDraft({ ...draft, name_en: e.target.value })} /></label>
        <Button type="submit" icon="pi pi-plus" label={t('attr.add_option')} />
      </form>
    </section>
  );
}
