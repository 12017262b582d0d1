import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EntityMeta } from '../core/entity-meta.ts';
import { api, ApiError } from '../core/http-client.ts';
import { Spinner } from '../ui/Spinner.tsx';

const EntityForm = lazy(() => import('./EntityForm.tsx'));

/**
 * A singleton (site settings) opens on its one row, whatever its id: the server
 * creates the row at start, and a database without it still gets a create form
 * instead of "not found".
 */
export default function SingletonForm({ meta }: { meta: EntityMeta }) {
  const { t } = useTranslation();
  const name = meta.entity.name;
  const [row, setRow] = useState<{ id: number | null } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let live = true;
    api.get<{ data: Array<{ id: number }> }>(`/api/${name}`, { searchParams: { fields: 'id', sort: 'id', limit: 1 } })
      .then((r) => live && setRow({ id: r.data[0]?.id ?? null }), (e: ApiError) => live && setError(e));
    return () => { live = false; };
  }, [name]);
  if (error) return <p role="alert" className="bo-error-text">{t('common.error')}: {error.message}</p>;
  if (!row) return <Spinner />;
  return (
    <Suspense fallback={<Spinner />}>
      {row.id === null
        ? <EntityForm key="singleton-create" meta={meta} type="create" singleton onSaved={(saved) => setRow({ id: Number(saved.id) })} />
        : <EntityForm key={`singleton-${row.id}`} meta={meta} type="edit" id={row.id} singleton />}
    </Suspense>
  );
}
