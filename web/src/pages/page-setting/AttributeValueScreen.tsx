import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../core/http-client.ts';
import { useEntitySchema } from '../../core/use-entity-schema.ts';
import { menuAtom } from '../../core/app-data.ts';
import { loc } from '../../core/i18n.ts';
import { displayFieldOf, formatCell, isNumeric } from '../../renderer/format-value.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import './page-setting-i18n.ts';

type Row = Record<string, unknown>;

export interface AttributeValueProps { pageKey: string; subPageKey: string; recordId: string; attribute: string }

/**
 * The spec's /{pageKey}/{subPageKey}/{submenuDetailId}/{attributeId}: the value
 * of one attribute (field) of one record, under its page. The trail above it is
 * the menu's tree (group › page › record › attribute), each step a link back;
 * the server reads the record as the user may (a field the role may not read is
 * left out of the answer, and the screen says the value is empty).
 */
export default function AttributeValueScreen({ pageKey, subPageKey, recordId, attribute }: AttributeValueProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const schema = useEntitySchema(subPageKey);
  const menu = useAtomValue(menuAtom);
  const [row, setRow] = useState<Row | null>(null);
  const [error, setError] = useState<string | null>(null);
  const meta = schema.status === 'ready' ? schema.meta : null;
  const entity = meta?.entity;
  const field = entity?.fields[attribute];
  const target = field?.type === 'link' && field.entity ? meta?.related[field.entity] : undefined;
  const shown = field?.type === 'link' ? `${attribute}.${displayFieldOf(field, target)}` : null;

  useEffect(() => {
    if (!entity || !field) return;
    let live = true;
    const fields = ['id', entity.titleField, attribute, ...(shown ? [shown] : [])].join(',');
    setRow(null);
    setError(null);
    api.get<{ data: Row }>(`/api/${entity.name}/${encodeURIComponent(recordId)}`, { searchParams: field.type === 'lines' ? {} : { fields } })
      .then((r) => live && setRow(r.data), (err: unknown) => live && setError(err instanceof ApiError ? err.message : String(err)));
    return () => { live = false; };
  }, [entity, field, attribute, recordId, shown]);

  if (schema.status === 'loading') return <Spinner />;
  if (!entity) return <section className="bo-page"><p role="alert" className="bo-error-text">{schema.status === 'error' ? schema.error.message : t('common.not_found', { defaultValue: 'ไม่พบหน้านี้' })}</p></section>;
  const group = menu.status === 'loaded' ? menu.data.menuList.find((g) => g.key === pageKey) : undefined;
  const pageLabel = loc(entity.labelPlural ?? entity.label, lang);
  const title = row ? String(row[entity.titleField] ?? '') || t('ps.attr.record', { id: recordId }) : t('ps.attr.record', { id: recordId });
  const base = `/${pageKey}/${subPageKey}`;
  const value = (): React.ReactNode => {
    if (!row || !field) return null;
    if (field.type === 'lines') return t('ps.attr.lines', { count: Array.isArray(row[attribute]) ? (row[attribute] as unknown[]).length : 0 });
    const v = shown && row[shown] !== undefined && row[shown] !== null ? row[shown] : row[attribute];
    const text = formatCell(shown ? undefined : field, v, lang);
    return text === '' ? <span className="bo-muted">{t('ps.attr.empty')}</span> : <span className={isNumeric(field) ? 'num' : undefined}>{text}</span>;
  };
  return (
    <section className="bo-page" data-testid="attribute-value">
      <nav className="bo-trail" aria-label={t('ps.page')}>
        <ol>
          <li>{group ? loc(group.label, lang) || pageKey : pageKey}</li>
          <li><Link to={base}>{pageLabel}</Link></li>
          <li><Link to={`${base}/${encodeURIComponent(recordId)}`}>{title}</Link></li>
          <li aria-current="page">{field ? loc(field.label, lang) : attribute}</li>
        </ol>
      </nav>
      <PageTitle>{field ? `${loc(field.label, lang)} · ${title}` : pageLabel}</PageTitle>
      {!field && <p role="alert" className="bo-error-text">{t('ps.attr.unknown', { attribute })}</p>}
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {field && !row && !error && <Spinner />}
      {field && row && (
        <div className="bo-card bo-attr-value">
          <dl>
            <dt>{loc(field.label, lang)}</dt>
            <dd data-testid="attribute-value-text">{value()}</dd>
          </dl>
          {field.help && <p className="bo-muted">{loc(field.help, lang)}</p>}
        </div>
      )}
      <p className="bo-attr-links">
        <Link to={`${base}/${encodeURIComponent(recordId)}`}>{t('ps.attr.open_record')}</Link>
        {' · '}
        <Link to={`/page_setting/${subPageKey}`}>{t('ps.attr.page_settings')}</Link>
      </p>
    </section>
  );
}
