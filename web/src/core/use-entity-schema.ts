import { useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { schemaRevisionAtom } from './schema-live.ts';
import { arrivedEntityMeta, fetchBuiltEntities, fetchEntityMeta, type EntityMeta } from './entity-meta.ts';
import { ApiError } from './http-client.ts';

export type SchemaState = { status: 'loading' } | { status: 'missing' } | { status: 'forbidden' } | { status: 'error'; error: ApiError } | { status: 'ready'; meta: EntityMeta };

/**
 * The schema a generic screen renders from; 'missing' when the server has no such entity, 'forbidden' when it has one this user may not open.
 * When page settings change (socket `schema-changed`), it is read again and the screen keeps showing the old one until the new one arrives.
 */
export function useEntitySchema(name: string | undefined): SchemaState {
  // a schema already here (asked for with the session calls) renders on the first pass, without a spinner in between
  const [state, setState] = useState<SchemaState>(() => {
    const meta = name ? arrivedEntityMeta(name) : undefined;
    return meta ? { status: 'ready', meta } : { status: 'loading' };
  });
  const revision = useAtomValue(schemaRevisionAtom);
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!name) { setState({ status: 'missing' }); return; }
    let live = true;
    // a new name starts from the spinner; a new revision of the same name swaps the schema in place
    if (shown.current !== undefined && shown.current !== name) setState({ status: 'loading' });
    shown.current = name;
    fetchEntityMeta(name).then(
      (meta) => live && setState({ status: 'ready', meta }),
      (err: ApiError) => {
        if (err.status !== 404) { if (live) setState({ status: 'error', error: err }); return; }
        void fetchBuiltEntities().then((built) => live && setState({ status: built.has(name) ? 'forbidden' : 'missing' }));
      },
    );
    return () => { live = false; };
  }, [name, revision]);
  return state;
}
