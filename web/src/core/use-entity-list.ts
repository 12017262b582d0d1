import { useEffect, useState } from 'react';
import { api, ApiError } from './http-client.ts';

export interface ListRequest {
  entity: string;
  fields: string[];
  filter: Record<string, unknown>;
  sort: string;
  search: string;
  page: number;
  limit: number;
}

export interface ListResult {
  rows: Array<Record<string, unknown>>;
  total: number;
}

export function listSearchParams(req: ListRequest): Record<string, string | number> {
  const p: Record<string, string | number> = { page: req.page, limit: req.limit, meta: 'total_count' };
  if (req.fields.length) p.fields = req.fields.join(',');
  if (Object.keys(req.filter).length) p.filter = JSON.stringify(req.filter);
  if (req.sort) p.sort = req.sort;
  if (req.search.trim()) p.search = req.search.trim();
  return p;
}

/** One page of a list from the server's list protocol; the previous page stays on screen while the next loads. */
export function useEntityList(req: ListRequest | null, reloadKey = 0): { result: ListResult | null; loading: boolean; error: ApiError | null } {
  const [result, setResult] = useState<ListResult | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const key = req ? JSON.stringify(req) : '';
  useEffect(() => {
    if (!req) return;
    const ctl = new AbortController();
    setLoading(true);
    api.get<{ data: Array<Record<string, unknown>>; meta?: { total_count?: number } }>(`/api/${req.entity}`, { searchParams: listSearchParams(req), signal: ctl.signal })
      .then((r) => { setResult({ rows: r.data, total: r.meta?.total_count ?? r.data.length }); setError(null); })
      .catch((e: unknown) => { if (!ctl.signal.aborted) setError(e instanceof ApiError ? e : new ApiError(500, String(e))); })
      .finally(() => { if (!ctl.signal.aborted) setLoading(false); });
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, reloadKey]);
  return { result, loading, error };
}
