import type { EntityMeta } from '../core/entity-meta.ts';
import type { ListRequest } from '../core/list-params.ts';
import type { TableView } from '../core/table-view-memory.ts';
import { defaultHidden, listColumns, listFields, type ListColumn } from './list-columns.ts';

/** The rows a list asks for when the user has not chosen a page size. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * The request the generic list makes for a view: one function for the list
 * and for the prefetch that starts it while the rest of the screen loads, so
 * both ask for exactly the same rows.
 */
export function listRequestOf(meta: EntityMeta, view: TableView, cols: ListColumn[] = listColumns(meta.entity, meta.related)): ListRequest {
  const hidden = view.hiddenColumns ?? defaultHidden(meta.entity, cols);
  return {
    entity: meta.entity.name,
    fields: listFields(cols, hidden),
    filter: view.filter,
    sort: view.sort,
    search: view.search,
    page: view.page,
    limit: view.pageSize ?? meta.entity.list?.pageSize ?? DEFAULT_PAGE_SIZE,
  };
}
