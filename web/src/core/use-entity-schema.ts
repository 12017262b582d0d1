import { useEffect, useState } from 'react';
import { fetchEntityMeta, type EntityMeta } from './entity-meta.ts';
import { ApiError } from './http-client.ts';

export type SchemaState = { status: 'loading' } | { status: 'missing' } | { status: 'error'; error: ApiError } | { status: 'ready'; meta: EntityMeta };

/** The schema a generic screen renders from; 'missing' when the server has no such entity. */
export function useEntitySchema(name: string | undefined): SchemaState {
  const [state, setState] = useState<SchemaState>({ status: 'loading' });
  useEffect(() => {
    if (!name) { setState({ status: 'missing' }); return; }
    let live = true;
    setState({ status: 'loading' });
    fetchEntityMeta(name).then(
      (meta) => live && setState({ status: 'ready', meta }),
      (err: ApiError) => live && setState(err.status === 404 ? { status: 'missing' } : { status: 'error', error: err }),
    );
    return () => { live = false; };
  }, [name]);
  return state;
}
