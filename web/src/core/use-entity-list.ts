import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from './http-client.ts';
import { listCall, type ListRequest } from './list-params.ts';

export { listCall, listSearchParams, type ListRequest } from './list-params.ts';

export interface ListResult {
  rows: Array<Record<string, unknown>>;
  total: number;
}

type ListAnswer = { data: Array<Record<string, unknown>>; meta?: { total_count?: number } };

/** A list page asked for before its screen rendered, kept for a short while for the screen to take. */
const prefetched = new Map<string, { answer: Promise<ListAnswer>; at: number; value?: ListAnswer }>();
const PREFETCH_TTL_MS = 10_000;

function fetchList(req: ListRequest, signal?: AbortSignal): Promise<ListAnswer> {
  const c = listCall(req);
  return api.get<ListAnswer>(c.path, { searchParams: c.searchParams, signal });
}

/**
 * Starts a list request while the screen's code and the session calls still
 * load, so the first rows do not wait for them. The list takes the answer if
 * it asks for exactly this request soon after.
 */
export function prefetchList(req: ListRequest): void {
  const key = JSON.stringify(req);
  const answer = fetchList(req);
  const entry: { answer: Promise<ListAnswer>; at: number; value?: ListAnswer } = { answer, at: Date.now() };
  // a refused prefetch is simply not used; the list asks again and shows its error
  answer.then((v) => { entry.value = v; }, () => undefined);
  prefetched.set(key, entry);
}

function takePrefetched(key: string): Promise<ListAnswer> | null {
  const hit = prefetched.get(key);
  prefetched.delete(key);
  return hit && Date.now() - hit.at < PREFETCH_TTL_MS ? hit.answer : null;
}

/** The rows of a prefetched page that has already arrived: the list shows them on its first render. */
function arrivedPrefetch(key: string): ListResult | null {
  const hit = prefetched.get(key);
  if (!hit?.value || Date.now() - hit.at >= PREFETCH_TTL_MS) return null;
  return { rows: hit.value.data, total: hit.value.meta?.total_count ?? hit.value.data.length };
}

/** One page of a list from the server's list protocol; the previous page stays on screen while the next loads. */
export function useEntityList(req: ListRequest | null, reloadKey = 0): { result: ListResult | null; loading: boolean; error: ApiError | null } {
  const key = req ? JSON.stringify(req) : '';
  const [result, setResult] = useState<ListResult | null>(() => (req && reloadKey === 0 ? arrivedPrefetch(key) : null));
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  // a page shown by the first render (it had arrived): the effect then neither asks again nor renders it again
  const firstKey = useRef(result ? key : null);
  useEffect(() => {
    if (!req) return;
    if (firstKey.current === key && reloadKey === 0) { takePrefetched(key); return; }
    firstKey.current = null;
    const ctl = new AbortController();
    setLoading(true);
    const early = reloadKey === 0 ? takePrefetched(key) : null;
    (early ?? fetchList(req, ctl.signal))
      .then((r) => { if (ctl.signal.aborted) return; setResult({ rows: r.data, total: r.meta?.total_count ?? r.data.length }); setError(null); })
      .catch((e: unknown) => { if (!ctl.signal.aborted) setError(e instanceof ApiError ? e : new ApiError(500, String(e))); })
      .finally(() => { if (!ctl.signal.aborted) setLoading(false); });
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, reloadKey]);
  return { result, loading, error };
}
