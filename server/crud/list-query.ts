import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import { parseFilter, resolvePath, FilterError, type FieldResolver } from '../../engine/filter/filter-parser.ts';
import { AppError } from '../errors/app-error.ts';

export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 25;
const MAX_SEARCH = 200;

export interface ListQuery {
  filter: FilterNode | null;
  sort: { path: string[]; desc: boolean }[];
  limit: number;
  offset: number;
  page: number;
  search: string | null;
  /** Column names and dotted link paths to return; null means every column. */
  fields: string[][] | null;
  withTotal: boolean;
  /** Soft-deleted rows instead of live ones (a list alias's deletedParam=1; never the plain list protocol). */
  deleted?: boolean;
}

export type RawListQuery = Record<string, unknown>;

function asFilterError(err: unknown): never {
  if (err instanceof FilterError) {
    throw new AppError(err.code, `${err.message} (at ${err.path})`, { path: err.path });
  }
  throw err;
}

function single(raw: RawListQuery, key: string): string | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new AppError('INVALID_QUERY', `"${key}" may be given only once`);
  return String(v);
}

/** Past this, offsets and pages name rows no table here will hold; both databases take it as a 32-bit-safe integer. */
export const MAX_OFFSET = 1_000_000_000;

/** A whole number of at least `min`; above `max` it is refused, or taken as `max` when `capped` (a limit asks for "as many as allowed"). */
function positiveInt(raw: RawListQuery, key: string, min: number, max: number, capped = false): number | undefined {
  const v = single(raw, key);
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new AppError('INVALID_QUERY', `"${key}" must be a whole number of at least ${min}`);
  if (v.length > 15 || Number(v) > max) {
    if (capped) return max;
    throw new AppError('INVALID_QUERY', `"${key}" must be at most ${max}`);
  }
  return Number(v);
}

const KNOWN_PARAMS = new Set(['filter', 'sort', 'page', 'limit', 'offset', 'offSet', 'search', 'fields', 'meta']);

/**
 * Reads the list protocol (Directus grammar) from a query string and checks
 * every field name in it against the schema. Unknown names never reach SQL.
 */
export function parseListQuery(raw: RawListQuery, entity: EntitySchema, resolver: FieldResolver, extraParams: ReadonlySet<string> = new Set()): ListQuery {
  for (const key of Object.keys(raw)) {
    if (!KNOWN_PARAMS.has(key) && !extraParams.has(key)) {
      throw new AppError('INVALID_QUERY', `Unknown query parameter "${key}"; use filter, sort, page, limit, offset, search, fields or meta`);
    }
  }
  let filter: FilterNode | null = null;
  const rawFilter = single(raw, 'filter');
  if (rawFilter) {
    let parsed: unknown;
    try { parsed = JSON.parse(rawFilter); } catch { throw new AppError('INVALID_FILTER', 'filter must be JSON, e.g. {"code":{"_eq":"C001"}}'); }
    try { filter = parseFilter(parsed, entity, resolver); } catch (err) { asFilterError(err); }
  }

  const sort: ListQuery['sort'] = [];
  const rawSort = single(raw, 'sort') ?? entity.defaultSort ?? '';
  for (const part of rawSort.split(',').map((s) => s.trim()).filter(Boolean)) {
    const desc = part.startsWith('-');
    const path = (desc ? part.slice(1) : part).split('.');
    try { resolvePath(entity, path, resolver, 'sort'); } catch (err) { asFilterError(err); }
    sort.push({ path, desc });
  }

  let fields: string[][] | null = null;
  const rawFields = single(raw, 'fields');
  if (rawFields) {
    const asked = rawFields.split(',').map((s) => s.trim()).filter(Boolean).map((f) => f.split('.'));
    // a column the role may not read is left out, so the list still shows the others (filter and sort on it stay refused)
    fields = asked.filter((path) => {
      try { resolvePath(entity, path, resolver, 'fields'); return true; } catch (err) {
        if (err instanceof FilterError && err.code === 'FIELD_FORBIDDEN') return false;
        return asFilterError(err);
      }
    });
    if (asked.length && !fields.length) fields = [['id']];
  }

  const limit = Math.min(positiveInt(raw, 'limit', 1, MAX_LIMIT, true) ?? entity.list?.pageSize ?? DEFAULT_LIMIT, MAX_LIMIT);
  const page = positiveInt(raw, 'page', 1, Math.floor(MAX_OFFSET / limit) + 1) ?? 1;
  const offset = positiveInt(raw, 'offset', 0, MAX_OFFSET) ?? positiveInt(raw, 'offSet', 0, MAX_OFFSET) ?? (page - 1) * limit;
  const search = single(raw, 'search')?.trim() || null;
  if (search && search.length > MAX_SEARCH) throw new AppError('INVALID_QUERY', `search is limited to ${MAX_SEARCH} characters`);
  if (search?.includes('\u0000')) throw new AppError('INVALID_QUERY', 'search must not contain the NUL character');
  const meta = single(raw, 'meta');
  if (meta && !['total_count', '*'].includes(meta)) throw new AppError('INVALID_QUERY', 'meta takes total_count');
  return { filter, sort, limit, offset, page, search, fields, withTotal: !!meta };
}
