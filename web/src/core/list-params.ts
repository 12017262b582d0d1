import type { EarlyCall } from './early-requests.ts';

// Without React: the boot entry (web/src/boot.ts) asks for a list's first page with exactly the call the list makes.

export interface ListRequest {
  entity: string;
  fields: string[];
  filter: Record<string, unknown>;
  sort: string;
  search: string;
  page: number;
  limit: number;
}

export function listSearchParams(req: ListRequest): Record<string, string | number> {
  const p: Record<string, string | number> = { page: req.page, limit: req.limit, meta: 'total_count' };
  if (req.fields.length) p.fields = req.fields.join(',');
  if (Object.keys(req.filter).length) p.filter = JSON.stringify(req.filter);
  if (req.sort) p.sort = req.sort;
  if (req.search.trim()) p.search = req.search.trim();
  return p;
}

/** The call of one list page (GET /api/{entity}?page=…). */
export function listCall(req: ListRequest): EarlyCall & { searchParams: Record<string, string | number> } {
  return { method: 'get', path: `/api/${req.entity}`, searchParams: listSearchParams(req) };
}
