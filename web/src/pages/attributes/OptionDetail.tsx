import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputNumber } from 'primereact/inputnumber';
import { Checkbox } from 'primereact/checkbox';
import { api } from '../../core/http-client.ts';
import { toast } from '../../core/toast-bus.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import { nameOf, pageOfPath, type OptionRow } from './attribute-kinds.ts';
import './attribute-i18n.ts';

interface ProductRow { id: number; code: string; name_th: string }

/** /{page}/{submenuDetailId}/{attributeId}: one option, editable, and the products that carry it (the product list's filter through its attribute lines). */
export default function OptionDetail() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { submenuDetailId, attributeId } = useParams();
  const page = pageOfPath(useLocation().pathname);
  const [option, setOption] = useState<OptionRow | null>(null);
  const [products, setProducts] = useState<ProductRow[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api.get<{ data: OptionRow }>(`/api/attribute_option/${attributeId}`).then((r) => setOption(r.data), setError);
    api.get<{ data: ProductRow[] }>('/api/product', { searchParams: { filter: JSON.stringify({ 'attributes.option_id': { _eq: Number(attributeId) } }), fields: 'id,code,name_th', sort: 'code', limit: 200 } })
      .then((r) => setProducts(r.data), () => setProducts([]));
  }, [attributeId]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!option) return;
    setError(null);
    try {
      const r = await api.patch<{ data: OptionRow }>(`/api/attribute_option/${option.id}`, { name_th: option.name_th, name_en: option.name_en || null, sort_order: option.sort_order, is_active: option.is_active });
      setOption(r.data);
      toast('success', t('common.saved'));
    } catch (err) { setError(err); }
  };

  return (
    <section className="bo-page" data-testid="option-detail-page">
      <PageTitle>{option ? `${t('attr.options')}: ${nameOf(option, i18n.language)}` : t(`route.${page}`)}</PageTitle>
      <Button icon="pi pi-arrow-left" label={t('attr.back')} text onClick={() => navigate(`/${page}/${submenuDetailId}`)} />
      <ErrorBox error={error} />
      {!option ? <Spinner /> : (
        <form className="bo-admin-row" onSubmit={save} style={{ margin: '12px 0' }}>
          <label className="bo-field"><span>{t('attr.code')}</span><InputText value={option.code} disabled /></label>
          <label className="bo-field"><span>{t('attr.name_th')}</span><InputText name="name_th" value={option.name_th} onChange={(e) => setOption({ ...option, name_th: e.target.value })} required /></label>
          <label className="bo-field"><span>{t('attr.name_en')}</span><InputText name="name_en" value={option.name_en ?? ''} onChange={(e) => setOption({ ...option, name_en: e.target.value })} /></label>
          <label className="bo-field"><span>{t('attr.sort_order')}</span><InputNumber value={option.sort_order} min={0} onValueChange={(e) => setOption({ ...option, sort_order: e.value ?? 0 })} /></label>
          <label className="bo-field" style={{ flex: '0 0 auto' }}><span>{t('attr.active')}</span><Checkbox checked={option.is_active} onChange={(e) => setOption({ ...option, is_active: !!e.checked })} /></label>
          <Button type="submit" icon="pi pi-check" label={t('common.save')} />
        </form>
      )}
      <h3>{t('attr.products')}</h3>
      {products === null ? <Spinner /> : products.length === 0 ? <p className="bo-muted">{t('attr.no_products')}</p> : (
        <table className="bo-admin-table" data-testid="option-products">
          <tbody>
            {products.map((p) => (
              <tr key={p.id}><td><a href={`/product/${p.id}`} onClick={(e) => { e.preventDefault(); navigate(`/product/${p.id}`); }}>{p.code}</a></td><td>{p.name_th}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
