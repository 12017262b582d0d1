import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { RelatedList as RelatedListDef } from '../../../engine/schema/schema-types.ts';
import { useEntitySchema } from '../core/use-entity-schema.ts';
import { readRecord } from '../core/record-api.ts';
import { entityLabel } from '../core/labels.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import NotFound from '../ui/NotFound.tsx';
import { RelatedList } from '../renderer/RelatedList.tsx';
import { displayFieldOf } from '../renderer/format-value.ts';

/**
 * The rows of one entity that link to one record, as a page of their own
 * (/attachment/{id}: the files of company {id}), with add and upload-and-attach.
 */
export default function ChildListPage({ entity, via, titleKey }: { entity: string; via: string; titleKey: string }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const parentId = Number(id);
  const schema = useEntitySchema(entity);
  const child = schema.status === 'ready' ? schema.meta : null;
  const link = child?.entity.fields[via];
  const parent = link?.entity ? child?.related[link.entity] : undefined;
  const [parentName, setParentName] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    if (!parent || !link || !Number.isInteger(parentId) || parentId < 1) return;
    const shown = displayFieldOf(link, parent);
    let live = true;
    void readRecord(parent.name, parentId, ['id', shown]).then((r) => {
      if (!live) return;
      if (r.success) setParentName(String(r.data[shown] ?? `#${parentId}`));
      else setMissing(true);
    });
    return () => { live = false; };
  }, [parent, link, parentId]);

  const def: RelatedListDef | null = useMemo(() => {
    if (!child || !parent) return null;
    const declared = parent.related?.find((r) => r.entity === entity && r.field === via);
    return {
      key: declared?.key ?? entity,
      entity,
      field: via,
      label: child.entity.labelPlural ?? child.entity.label,
      columns: child.entity.list?.columns ?? declared?.columns,
    };
  }, [child, parent, entity, via]);

  if (!Number.isInteger(parentId) || parentId < 1 || missing) return <NotFound />;
  if (schema.status === 'missing' || schema.status === 'forbidden') return <NotFound />;
  if (schema.status === 'error') return <p role="alert" className="bo-error-text">{schema.error.message}</p>;
  if (!child || !parent || !def) return <Spinner />;
  const title = parentName ? `${t(titleKey)}: ${parentName}` : t(titleKey);
  return (
    <section className="bo-page" data-testid="child-list-page">
      <PageTitle actions={(
        <Link to={`/${parent.name}/${parentId}`} className="p-button p-button-text p-button-sm">
          <i className="pi pi-arrow-left" aria-hidden="true" />&nbsp;{t('attachment.back_to', { name: parentName ?? entityLabel(t, parent) })}
        </Link>
      )}>{title}</PageTitle>
      <RelatedList parent={parent} parentId={parentId} def={def} standalone />
    </section>
  );
}
