import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../core/http-client.ts';
import { loc } from '../core/i18n.ts';
import { entityLabel, fieldLabel } from '../core/labels.ts';
import { readRecord } from '../core/record-api.ts';
import { toast } from '../core/toast-bus.ts';
import { useEntitySchema } from '../core/use-entity-schema.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import NotFound from '../ui/NotFound.tsx';
import { CellValue } from '../renderer/CellValue.tsx';
import { isNumeric } from '../renderer/format-value.ts';
import { displayFieldOf } from '../renderer/format-value.ts';
import { formSections } from '../renderer/form-model.ts';

type Row = Record<string, unknown>;

/**
 * One record, read-only (/view_alert/{id}). Opening it marks it: the boolean
 * field `mark` (an alert's is_read) is set with PATCH {mark: true}.
 */
export default function ViewRecordPage({ entity, mark, titleKey }: { entity: string; mark?: string; titleKey: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { id } = useParams();
  const recordId = Number(id);
  const schema = useEntitySchema(entity);
  const meta = schema.status === 'ready' ? schema.meta : null;
  const [row, setRow] = useState<Row | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    if (!meta || !Number.isInteger(recordId) || recordId < 1) return;
    const e = meta.entity;
    const fields = ['id', 'created_at'];
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.type === 'lines' || f.hidden) continue;
      fields.push(name);
      if (f.type === 'link' && meta.related[f.entity!]) fields.push(`${name}.${displayFieldOf(f, meta.related[f.entity!])}`);
    }
    let live = true;
    void readRecord<Row>(e.name, recordId, fields).then(async (r) => {
      if (!live) return;
      if (!r.success) { setError(r.error); if (r.error.status !== 404) toast('error', t('common.error'), r.error.message); return; }
      setRow(r.data);
      if (mark && e.fields[mark]?.type === 'boolean' && !r.data[mark]) {
        try {
          await api.patch(`/api/${e.name}/${recordId}`, { [mark]: true });
          if (live) setRow({ ...r.data, [mark]: true });
        } catch (err) {
          console.error(`marking ${e.name}/${recordId} failed:`, err);
          toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
        }
      }
    });
    return () => { live = false; };
  }, [meta, recordId, mark, t]);

  if (!Number.isInteger(recordId) || recordId < 1 || schema.status === 'missing' || schema.status === 'forbidden' || error?.status === 404) return <NotFound />;
  if (schema.status === 'error') return <p role="alert" className="bo-error-text">{schema.error.message}</p>;
  if (error) return <p role="alert" className="bo-error-text">{error.message}</p>;
  if (!meta || !row) return <Spinner />;
  const e = meta.entity;
  const names = formSections(e).flatMap((s) => s.fields).filter((n) => e.fields[n] && !e.fields[n]!.hidden && e.fields[n]!.type !== 'lines' && n !== e.titleField);
  const long = names.filter((n) => e.fields[n]!.type === 'text');
  const short = names.filter((n) => e.fields[n]!.type !== 'text');
  const value = (name: string) => {
    const f = e.fields[name]!;
    const v = row[name];
    if (v === null || v === undefined || v === '') return <span className="bo-muted">—</span>;
    if (f.type === 'link') {
      const target = meta.related[f.entity!];
      const label = target ? row[`${name}.${displayFieldOf(f, target)}`] : undefined;
      return <Link to={`/${f.entity}/${String(v)}`}>{String(label ?? `#${String(v)}`)}</Link>;
    }
    if (f.type === 'string' && f.pattern?.startsWith('^/') && typeof v === 'string' && v.startsWith('/')) {
      return <Link to={v}>{t('alert.open_link')} <i className="pi pi-external-link" aria-hidden="true" /></Link>;
    }
    if (f.type === 'boolean' && name === mark) {
      return v ? <span className="bo-chip bo-chip-ok">{t('alert.read')}</span> : <span className="bo-chip">{t('alert.unread')}</span>;
    }
    return <CellValue field={f} value={v} lang={lang} />;
  };
  return (
    <section className="bo-page bo-view-page" data-testid="view-record">
      <PageTitle actions={<Link to={`/${e.name}`} className="p-button p-button-text p-button-sm"><i className="pi pi-arrow-left" aria-hidden="true" />&nbsp;{entityLabel(t, e, true)}</Link>}>
        {`${t(titleKey)}: ${String(row[e.titleField] ?? `#${recordId}`)}`}
      </PageTitle>
      <article className="bo-view-card">
        <dl className="bo-view-grid">
          {short.map((n) => <div key={n} data-field={n} className={isNumeric(e.fields[n]) ? 'bo-num-item' : undefined}><dt>{fieldLabel(t, e.name, n, e.fields[n]!, lang)}</dt><dd>{value(n)}</dd></div>)}
        </dl>
        {long.map((n) => (
          <div key={n} className="bo-view-long" data-field={n}>
            <h2>{fieldLabel(t, e.name, n, e.fields[n]!, lang)}</h2>
            {row[n] ? <p>{String(row[n])}</p> : <p className="bo-muted">—</p>}
          </div>
        ))}
        <p className="bo-muted bo-view-meta">{loc(e.label, lang)} #{recordId}</p>
      </article>
    </section>
  );
}
