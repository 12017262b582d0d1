import type { RawListQuery } from './list-query.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * A download by POST carries its query as a JSON object (the spec's blob
 * downloads: a GET, and a POST with a JSON body). Its values become the query
 * string's: strings stay, numbers and booleans are written out, and an object
 * or array (a filter, a list of fields) is its JSON, as the query string would
 * carry it. Anything else is a request the server cannot read.
 */
export function postedQuery(body: unknown): RawListQuery {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'A download by POST sends its parameters as a JSON object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (k === 'fields' && Array.isArray(v)) out[k] = v.join(',');
    else out[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out as RawListQuery;
}
