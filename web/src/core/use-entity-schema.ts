import { useEffect, useState } from 'react';
import { fetchBuiltEntities, fetchEntityMeta, type EntityMeta } from './entity-meta.ts';
import { ApiError } from './http-client.ts';

export type SchemaState = { status: 'loading' } | { status: 'missing' } | { status: 'forbidden' } | { status: 'error'; error: ApiError } | { status: 'ready'; meta: EntityMeta };

/** The schema a generic screen renders from; 'missing' when the server has no such entity, 'forbidden' when it has one this user may not open. */
export function useEntitySchema(name: string | undefined): SchemaState {
  const [state, setState] = useState<SchemaState>({ status: 'loading' });
  useEffect(() => {
    if (!name) { setState({ status: 'missing' }); return; }
    let live = true;
    setState({ status: 'loading' });
    fetchEntityMeta(name).then(
      (meta) => live && setState({ status: 'ready', meta }),
      (err: ApiError) => {
        if (err.status !== 404) { if (live) setState({ status: 'error', error: err }); return; }
        void fetchBuiltEntities().then((built) => live && setState({ status: built.has(name) ? 'forbidden' : 'missing' }));
      },
    );
    return () => { live = false; };
  }, [name]);
  return state;
}
