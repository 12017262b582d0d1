import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import type { EntitySchema, RelatedList as RelatedListDef } from '../../../engine/schema/schema-types.ts';
import { api, ApiError } from '../core/http-client.ts';
import { loc } from '../core/i18n.ts';
import { fieldLabel } from '../core/labels.ts';
import { useCan } from '../core/permissions.ts';
import { toast } from '../core/toast-bus.ts';
import { useEntityList } from '../core/use-entity-list.ts';
import { useEntitySchema } from '../core/use-entity-schema.ts';
import { downloadFile, uploadFiles } from '../core/file-api.ts';
import { CellValue } from './CellValue.tsx';
import { isNumeric } from './format-value.ts';
import { columnFor, type ListColumn } from './list-columns.ts';
import { fileFieldOf, fileMetadataValues, uploadCategoryOf } from './file-metadata.ts';
import { acceptAttr } from './fields/FileField.tsx';
import { RecordForm } from './record-form-slot.ts';
import { parseFilter } from '../../../engine/filter/filter-parser.ts';
import { evaluateFilter } from '../../../engine/filter/filter-evaluator.ts';


type Row = Record<string, unknown>;
const LIMIT = 100;

/** Whether the add button shows: always, unless the schema's `add.when` (a filter on the parent record, as visibleIf) does not hold. */
function addAllowed(parent: EntitySchema, def: RelatedListDef, record: Row | null | undefined): boolean {
  if (!def.add?.when) return true;
  if (!record) return false;
  try { return evaluateFilter(parseFilter(def.add.when, parent, { entity: () => undefined }), record); } catch { return false; }
}

export interface RelatedListProps {
  parent: EntitySchema;
  parentId: number;
  def: RelatedListDef;
  /** The record the list hangs under, for `def.add.when` (the add button shows while it holds). */
  parentRecord?: Row | null;
  /** A full page of its own (the /attachment/{id} screen) rather than a section of a form. */
  standalone?: boolean;
}

/**
 * A related list of a record (schema `related`): the rows of another entity
 * whose `field` links back to this record. Add (the back-link prefilled and
 * locked), open and refresh, in a modal edit box over the record. An entity
 * with a file field also gets upload-and-attach in one step.
 */
export function RelatedList({ parent, parentId, parentRecord, def, standalone }: RelatedListProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const schema = useEntitySchema(def.entity);
  const child = schema.status === 'ready' ? schema.meta : null;
  const canEdit = useCan(child?.entity.menuKey ?? def.entity, 'edit');
  const [reload, setReload] = useState(0);
  const [editing, setEditing] = useState<{ type: 'create' | 'edit'; id?: number; n: number } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [parentId]);
  const fileInput = useRef<HTMLInputElement>(null);
  const headingId = `related-${def.key}`;

  const cols = useMemo(() => {
    if (!child) return [] as ListColumn[];
    const names = def.columns ?? child.entity.list?.columns ?? Object.keys(child.entity.fields).slice(0, 5);
    return names.map((n) => columnFor(child.entity, child.related, n)).filter((c): c is ListColumn => c !== null && c.name !== def.field);
  }, [child, def]);
  const fileField = child ? fileFieldOf(child.entity) : null;

  const request = useMemo(() => {
    if (!child) return null;
    const fields = new Set(['id']);
    for (const c of cols) { fields.add(c.name); fields.add(c.valueKey); if (c.colorKey) fields.add(c.colorKey); }
    if (fileField) fields.add(fileField);
    if (child.entity.fields.file_name) fields.add('file_name');
    return {
      entity: def.entity, fields: [...fields], filter: { [def.field]: { _eq: parentId } },
      sort: child.entity.defaultSort ?? '-id', search: '', page, limit: LIMIT,
    };
  }, [child, cols, def, parentId, fileField, page]);
  const { result, loading, error } = useEntityList(request, reload);
  const rows = result?.rows ?? [];

  const prefill = useMemo(() => ({ [def.field]: parentId }), [def.field, parentId]);
  const locked = useMemo(() => [def.field], [def.field]);
  const label = loc(def.label, lang);
  const addLabel = def.add ? loc(def.add.label, lang) : t('related.add');
  const addShown = useMemo(() => addAllowed(parent, def, parentRecord), [parent, def, parentRecord]);

  const uploadAndAttach = async (files: FileList | null) => {
    const f = files?.[0];
    if (!f || !child || !fileField) return;
    setProgress(0);
    try {
      const [stored] = await uploadFiles([f], uploadCategoryOf(child.entity, child.entity.fields[fileField]!), setProgress);
      if (!stored) return; // the upload told the person already
      await api.post(`/api/${def.entity}`, { ...fileMetadataValues(child.entity, stored), [def.field]: parentId, [fileField]: stored.id });
      toast('success', t('file.attached'), stored.file_name);
      setReload((r) => r + 1);
    } catch (err) {
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <section className={`bo-related ${standalone ? 'bo-related-standalone' : ''}`} aria-labelledby={headingId} data-related={def.key}>
      <div className="bo-related-head">
        <h2 id={headingId}>{label}</h2>
        {result && <span className="bo-count" data-testid={`related-count-${def.key}`}>{result.total}</span>}
        <span className="bo-toolbar-spacer" />
        {progress !== null && (
          <span className="bo-file-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} aria-label={t('file.uploading')}>
            <span className="bo-file-bar"><span style={{ width: `${progress}%` }} /></span>
            <span className="bo-file-percent">{progress}%</span>
          </span>
        )}
        {canEdit && fileField && (
          <label className={`p-button p-component p-button-sm p-button-outlined bo-file-pick ${progress !== null ? 'p-disabled' : ''}`}>
            <i className="pi pi-upload" aria-hidden="true" />
            <span>{t('file.upload_attach')}</span>
            <input ref={fileInput} type="file" className="bo-sr-only" aria-label={`${t('file.upload_attach')} (${label})`}
              accept={child ? acceptAttr(child.entity.fields[fileField]!) : undefined} disabled={progress !== null}
              onChange={(e) => void uploadAndAttach(e.target.files)} />
          </label>
        )}
        {canEdit && child && addShown && (
          <Button type="button" size="small" icon="pi pi-plus" label={addLabel} aria-label={def.add ? addLabel : `${addLabel} ${label}`} data-related-add={def.key}
            onClick={() => setEditing({ type: 'create', n: Date.now() })} />
        )}
        <Button type="button" size="small" icon="pi pi-refresh" text rounded severity="secondary" aria-label={`${t('related.refresh')} ${label}`}
          onClick={() => setReload((r) => r + 1)} />
      </div>
      {schema.status === 'error' && <p role="alert" className="bo-error-text">{schema.error.message}</p>}
      {error && <p role="alert" className="bo-error-text">{error.message}</p>}
      <div className={`bo-table-wrap ${loading ? 'is-loading' : ''}`} aria-busy={loading}>
        <table className="bo-table bo-related-table" aria-labelledby={headingId}>
          <thead>
            <tr>
              {cols.map((c) => <th key={c.name} scope="col" className={isNumeric(c.field) ? 'bo-num-cell' : undefined}>{child ? fieldLabel(t, child.entity.name, c.name, c.field, lang) : c.name}</th>)}
              {fileField && <th scope="col" className="bo-line-actions"><span className="bo-sr-only">{t('file.download')}</span></th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={String(row.id)} tabIndex={0} className="bo-row-link" onClick={() => setEditing({ type: 'edit', id: Number(row.id), n: Date.now() })}
                onKeyDown={(e) => { if (e.key === 'Enter' && e.target === e.currentTarget) setEditing({ type: 'edit', id: Number(row.id), n: Date.now() }); }}>
                {cols.map((c) => (
                  <td key={c.name} className={isNumeric(c.field) ? 'bo-num-cell' : undefined}>
                    <CellValue field={c.field} value={row[c.valueKey]} lang={lang}
                      color={c.colorKey ? (row[c.colorKey] as string | null) || c.defaultColor : undefined} />
                  </td>
                ))}
                {fileField && (
                  <td className="bo-line-actions">
                    {typeof row[fileField] === 'string' && row[fileField] && (
                      <Button type="button" icon="pi pi-download" text rounded size="small" aria-label={`${t('file.download')} ${String(row.file_name ?? '')}`}
                        onClick={(e) => { e.stopPropagation(); void downloadFile(String(row[fileField]), typeof row.file_name === 'string' ? row.file_name : undefined); }} />
                    )}
                  </td>
                )}
              </tr>
            ))}
            {result && rows.length === 0 && (
              <tr><td colSpan={cols.length + (fileField ? 1 : 0)} className="bo-empty">{t('related.empty')}</td></tr>
            )}
            {!result && !error && (
              <tr><td colSpan={Math.max(cols.length, 1)} className="bo-empty"><i className="pi pi-spin pi-spinner" aria-hidden="true" /></td></tr>
            )}
          </tbody>
        </table>
      </div>
      {result && result.total > LIMIT && (
        <div className="bo-muted bo-related-more" data-testid={`related-pager-${def.key}`}>
          <Button type="button" icon="pi pi-angle-left" text size="small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)} aria-label={t('related.prev')} />
          <span>{t('related.range', { from: (page - 1) * LIMIT + 1, to: (page - 1) * LIMIT + rows.length, total: result.total })}</span>
          <Button type="button" icon="pi pi-angle-right" text size="small" disabled={page * LIMIT >= result.total} onClick={() => setPage((p) => p + 1)} aria-label={t('related.next')} />
        </div>
      )}
      {editing && child && (
        <Suspense fallback={null}>
          <RecordForm
            key={editing.n}
            meta={child}
            type={editing.type}
            id={editing.id}
            presentation="modal"
            prefill={prefill}
            lockedFields={locked}
            onSaved={() => setReload((r) => r + 1)}
            onDeleted={() => setReload((r) => r + 1)}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      )}
    </section>
  );
}
