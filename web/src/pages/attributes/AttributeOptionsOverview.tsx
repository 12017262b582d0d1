import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ErrorBox } from '../admin/admin-common.tsx';
import { nameOf, pageOfKind, type ListedAttribute } from './attribute-kinds.ts';
import './attribute-i18n.ts';

/** /attribute_option: every active attribute with its options (GET /api/product/attribute/list); an attribute opens /attribute_option/{attributeId}. */
export default function AttributeOptionsOverview() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const [rows, setRows] = useState<ListedAttribute[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api.get<{ data: ListedAttribute[] }>('/api/product/attribute/list').then((r) => setRows(r.data), (e) => { setError(e); setRows([]); });
  }, []);
  return (
    <section className="bo-page" data-testid="attribute-options-page">
      <PageTitle>{t('route.attribute_option')}</PageTitle>
      <ErrorBox error={error} />
      {rows === null ? <Spinner /> : (
        <table className="bo-admin-table">
          <thead><tr><th>{t('attr.kind')}</th><th>{t('attr.code')}</th><th>{t('attr.options')}</th></tr></thead>
          <tbody>
            {rows.length === 0 && <tr><td colSpan={3} className="bo-muted">{t('list.empty')}</td></tr>}
            {rows.map((a) => (
              <tr key={a.id} className="is-link" onClick={() => navigate(`/attribute_option/${a.id}`)}>
                <td>{t(`route.${pageOfKind(a.kind)}`)}</td>
                <td><a href={`/attribute_option/${a.id}`} onClick={(e) => e.preventDefault()}>{a.code}</a> {nameOf(a, lang)}</td>
                <td>{a.options.map((o) => `${nameOf(o, lang)} (${o.product_ids.length})`).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
