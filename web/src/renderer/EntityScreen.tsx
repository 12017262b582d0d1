import { Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useEntitySchema } from '../core/use-entity-schema.ts';
import { Spinner } from '../ui/Spinner.tsx';
import NotFound from '../ui/NotFound.tsx';
import NotAvailableYet from '../ui/NotAvailableYet.tsx';
import NoAccess from '../ui/NoAccess.tsx';

import { EntityForm, EntityList, SingletonForm } from './entity-parts.ts';

export interface EntityScreenProps {
  entity: string;
  mode: 'list' | 'detail' | 'singleton';
  titleKey?: string;
  /** Reached through the catch-all route: no schema means not found. */
  dynamic?: boolean;
  /** The record id when the route names it otherwise than `:id` (the spec's /{pageKey}/{subPageKey}/{submenuDetailId}). */
  id?: string;
}

/** Resolves the schema and hands it to the generic list or form; no per-entity code anywhere. */
export default function EntityScreen({ entity, mode, titleKey, dynamic, id: idProp }: EntityScreenProps) {
  const state = useEntitySchema(entity);
  const params = useParams();
  const id = idProp ?? params.id;
  const { t, i18n } = useTranslation();
  if (state.status === 'loading') return <Spinner />;
  // a screen reached through the catch-all routes is titled by its schema's label (the server's language content)
  const entityTitle = `entity.${entity}.plural`;
  if (state.status === 'forbidden') return <NoAccess titleKey={titleKey ?? (i18n.exists(entityTitle) ? entityTitle : undefined)} />;
  if (state.status === 'missing') return dynamic || !titleKey ? <NotFound /> : <NotAvailableYet titleKey={titleKey} />;
  if (state.status === 'error') return <p role="alert" className="bo-error-text">{t('common.error')}: {state.error.message}</p>;
  const { meta } = state;
  if (dynamic && meta.entity.kind === 'lines') return <NotFound />;
  // a single-row entity (kind "singleton", the site settings) opens its one row at /{entity}
  if (mode === 'singleton' || (mode === 'list' && meta.entity.kind === 'singleton')) return <Suspense fallback={<Spinner />}><SingletonForm key={entity} meta={meta} /></Suspense>;
  if (mode === 'list') return <Suspense fallback={<Spinner />}><EntityList key={entity} meta={meta} /></Suspense>;
  const isCreate = !id || id === 'create';
  if (!isCreate && !/^[1-9][0-9]*$/.test(id)) return <NotFound />;
  // schema form.modal: the record opens in an edit box over its list, on create and on edit
  if (meta.entity.form?.modal) {
    return (
      <Suspense fallback={<Spinner />}>
        <EntityList key={entity} meta={meta} modal={isCreate ? { type: 'create' } : { type: 'edit', id: Number(id) }} />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<Spinner />}>
      <EntityForm key={`${entity}:${id ?? 'create'}`} meta={meta} type={isCreate ? 'create' : 'edit'} id={isCreate ? undefined : Number(id)} />
    </Suspense>
  );
}
