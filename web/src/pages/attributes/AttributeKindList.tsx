import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { api } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import { KIND_OF_PAGE, nameOf, pageOfPath, type AttributeRow, type ListedAttribute } from './attribute-kinds.ts';
import './attribute-i18n.ts';

/** /film_type, /brand, /grade, /attr_1, /attr_2, /attribute: the attributes of one kind, and a form to add one. */
export default function AttributeKindList() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const page = pageOfPath(useLocation().pathname);
  const kind = KIND_OF_PAGE[page] ?? 'free';
  const [rows, setRows] = useState<AttributeRow[] | null>(null);
  const [counts, setCounts] = useState<Record<number, number> | 'unknown' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);
  const [draft, setDraft] = useState({ code: '', name_th: '', name_en: '' });

  useEffect(() => {
    setRows(null);
    setCounts(null);
    api.get<{ data: AttributeRow[] }>('/api/product_attribute', { searchParams: { filter: JSON.stringify({ kind: { _eq: kind } }), sort: 'sort_order,code', limit: 500 } })
      .then((r) => setRows(r.data), (e) => { setError(e); setRows([]); });
    // option counts need view on products too; without it the column stays empty, as it does for an
    // inactive attribute (the answer lists active attributes only)
    api.get<{ data: ListedAttribute[] }>('/api/product/attribute/list')
      .then((r) => setCounts(Object.fromEntries(r.data.map((a) => [a.id, a.options.length]))), () => setCounts('unknown'));
  }, [kind, reload]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await api.post('/api/product_attribute', { ...draft, name_en: draft.name_en || null, kind });
      setDraft({ code: '', name_th: '', name_en: '' });
      setReload((n) => n + 1);
    } catch (err) { setError(err); }
  };

  return (
    <section className="bo-page" data-testid="attribute-kind-page">
      <PageTitle>{t(`route.${page}`)}</PageTitle>
      <p className="bo-muted" style={{ marginTop: 0 }}>{t('attr.assign_hint')}</p>
      <ErrorBox error={error} />
      {rows === null || counts === null ? <Spinner /> : (
        <div className="bo-table-wrap">
          <table className="bo-admin-table" data-testid="attribute-table">
            <thead><tr><th>{t('attr.code')}</th><th>{t('attr.name_th')}</th><th>{t('attr.name_en')}</th><th className="bo-num">{t('attr.option_count')}</th><th>{t('attr.active')}</th></tr></thead>
            <tbody>
              {rows.length === 0 && <tr><td colSpan={5} className="bo-muted">{t('list.empty')}</td></tr>}
              {rows.map((r) => (
                <tr key={r.id} className="is-link" onClick={() => navigate(`/${page}/${r.id}`)} data-code={r.code}>
                  <td><a href={`/${page}/${r.id}`} onClick={(e) => { e.preventDefault(); navigate(`/${page}/${r.id}`); }}>{r.code}</a></td>
                  <td>{r.name_th}</td><td>{r.name_en ?? ''}</td>
                  <td className="bo-num">{counts === 'unknown' || !(r.id in counts) ? '' : counts[r.id]}</td>
                  <td>{r.is_active ? t('attr.yes') : t('attr.no')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="bo-admin-row" onSubmit={add} style={{ marginTop: 16 }} aria-label={t('attr.add_attribute')}>
        <label className="bo-field"><span>{t('attr.code')}</span><InputText name="code" value={draft.code} onChange={(e) => setDraft({ ...draft, code: e.target.value })} required /></label>
        <label className="bo-field"><span>{nameOf({ name_th: t('attr.name_th'), name_en: null }, i18n.language)}</span><InputText name="name_th" value={draft.name_th} onChange={(e) => setDraft({ ...draft, name_th: e.target.value })} required /></label>
        <label className="bo-field"><span>{t('attr.name_en')}</span><InputText name="name_en" value={draft.name_en} onChange={(e) => setDraft({ ...draft, name_en: e.target.value })} /></label>
        <Button type="submit" icon="pi pi-plus" label={t('attr.add_attribute')} />
      </form>
    </section>
  );
}
