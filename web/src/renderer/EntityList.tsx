import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { settingsAtom } from '../core/app-data.ts';
import { fieldEnabled } from './field-enabled.ts';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  columnVisibilityFeature, createColumnHelper, rowPaginationFeature, rowSortingFeature, tableFeatures, useTable,
  type SortingState,
} from '@tanstack/react-table';
import { PlainButton } from '../ui/PlainButton.tsx';
import type { EntityMeta } from '../core/entity-meta.ts';
import { loc } from '../core/i18n.ts';
import { entityLabel, fieldLabel } from '../core/labels.ts';
import { tableViewAtom, nextView, type TableView } from '../core/table-view-memory.ts';
import { listSearchParams, useEntityList } from '../core/use-entity-list.ts';
import { ListExport } from './ListExport.tsx';
import { DEFAULT_PAGE_SIZE, listRequestOf } from './list-request.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { useCan } from '../core/permissions.ts';
import { useChainRowMenu } from './ChainRowMenu.tsx';
import { hasChain } from './document-chain.ts';
import { defaultHidden, listColumns, listFields, type ListColumn } from './list-columns.ts';
import { CellValue } from './CellValue.tsx';
import { ColumnPickerPending } from './ColumnPickerPending.tsx';
import { isNumeric } from './format-value.ts';

type Row = Record<string, unknown>;
const features = tableFeatures({ columnVisibilityFeature, rowSortingFeature, rowPaginationFeature });
const helper = createColumnHelper<typeof features, Row>();
const PAGE_SIZES = [25, 50, 100, 200];
const EntityForm = lazy(() => import('./EntityForm.tsx'));
// the filter row and its date and link pickers (a third of the list's code) load when the filters are opened
// the column picker (the UI kit's MultiSelect and its virtual scroller) loads beside the rows, not before them
const ColumnPicker = lazy(() => import('./ColumnPicker.tsx'));
const ListFilters = lazy(() => import('./ListFilters.tsx').then((m) => ({ default: m.ListFilters })));

/** The record a list shows in its modal edit box (schema `form.modal`): the route /{entity}/create or /{entity}/{id}. */
export interface ListModal {
  type: 'create' | 'edit';
  id?: number;
}
const EMPTY: Row[] = [];

export function sortToState(sort: string): SortingState {
  return sort.split(',').filter(Boolean).map((s) => ({ id: s.replace(/^-/, ''), desc: s.startsWith('-') }));
}
export function stateToSort(s: SortingState): string {
  return s.map((x) => `${x.desc ? '-' : ''}${x.id}`).join(',');
}

/** The list's query without paging: an export holds every page. */
function exportQuery(req: Parameters<typeof listSearchParams>[0]): Record<string, string | number> {
  const { page: _page, limit: _limit, meta: _meta, ...rest } = listSearchParams(req);
  return rest;
}

/** The generic list screen: paging, sorting, filtering and search all go to the server's list protocol. */
export default function EntityList({ meta, modal }: { meta: EntityMeta; modal?: ListModal }) {
  const { entity, related } = meta;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const listPath = `/${entity.name}`;
  const [view, setView] = useAtom(tableViewAtom(listPath));
  const update = (change: Partial<TableView>) => setView((prev) => nextView(prev, change));
  const cols = useMemo(() => listColumns(entity, related), [entity, related]);
  const hidden = view.hiddenColumns ?? defaultHidden(entity, cols);
  const pageSize = view.pageSize ?? entity.list?.pageSize ?? DEFAULT_PAGE_SIZE;
  const [searchText, setSearchText] = useState(view.search);
  const [showFilters, setShowFilters] = useState(Object.keys(view.filter).length > 0);
  const [reload, setReload] = useState(0);

  // search is debounced; the stored view only changes when typing pauses
  useEffect(() => {
    if (searchText === view.search) return;
    const timer = setTimeout(() => update({ search: searchText }), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchText]);

  const request = useMemo(() => listRequestOf(meta, view, cols), [meta, view, cols]);
  const { result, loading, error } = useEntityList(request, reload);

  const columns = useMemo(() => cols.map((c: ListColumn) => helper.accessor((row: Row) => row[c.valueKey], {
    id: c.sortKey,
    header: fieldLabel(t, entity.name, c.name, c.field, lang),
    cell: (info) => <CellValue field={c.field} value={info.getValue()} lang={lang}
      color={c.colorKey ? ((info.row.original as Row)[c.colorKey] as string | null) || c.defaultColor : undefined} />,
  })), [cols, lang]);
  // money and quantities line up on the right, headers included
  const numericIds = useMemo(() => new Set(cols.filter((c) => isNumeric(c.field)).map((c) => c.sortKey)), [cols]);
  // page settings: a column's width in pixels
  const widths = useMemo(() => new Map(cols.filter((c) => c.field.width).map((c) => [c.sortKey, c.field.width!])), [cols]);
  // a field the site settings switch off (enabledBy: the product image) is not shown, live; the request stays the same
  const settingsState = useAtomValue(settingsAtom);
  const site = settingsState.status === 'loaded' ? settingsState.data : null;
  const columnVisibility = useMemo(() => Object.fromEntries(cols.map((c) => [c.sortKey, !hidden.includes(c.name) && fieldEnabled(c.field, site)])), [cols, hidden, site]);
  const sorting = useMemo(() => sortToState(view.sort), [view.sort]);
  const total = result?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));

  const table = useTable({
    features,
    columns,
    data: result?.rows ?? EMPTY,
    manualPagination: true,
    manualSorting: true,
    enableMultiSort: false,
    rowCount: total,
    state: { sorting, pagination: { pageIndex: view.page - 1, pageSize }, columnVisibility },
    onSortingChange: (u) => update({ sort: stateToSort(typeof u === 'function' ? u(sorting) : u) }),
    onPaginationChange: (u) => {
      const cur = { pageIndex: view.page - 1, pageSize };
      const n = typeof u === 'function' ? u(cur) : u;
      update(n.pageSize !== pageSize ? { pageSize: n.pageSize } : { page: n.pageIndex + 1 });
    },
    getRowId: (row: Row) => String(row.id),
  });

  const filterNames = entity.list?.filters ?? (entity.list?.columns ?? []).filter((n) => entity.fields[n]);
  const title = entityLabel(t, entity, true);
  // a role without edit sees no "create" (the server refuses it anyway)
  const mayEdit = useCan(entity.menuKey ?? entity.name, 'edit');
  // a sale (document.sale) is made at the register, priced and posted by the server: no generic create form
  const canCreate = entity.kind !== 'ledger' && !entity.document?.sale && mayEdit;
  const rowMenu = hasChain(entity);
  const rowMenus = useChainRowMenu(entity.name);
  const open = (row: Row) => navigate(`/${entity.name}/${String(row.id)}`);
  // the modal box keeps its identity when a create turns into an edit of the new record
  const created = useRef<number | null>(null);
  const opened = useRef(0);
  const lastModal = useRef<string>('');
  const modalSig = modal ? `${modal.type}:${modal.id ?? ''}` : '';
  if (modalSig !== lastModal.current) {
    const becameCreated = modal?.type === 'edit' && modal.id !== undefined && modal.id === created.current;
    if (!becameCreated) opened.current += 1;
    lastModal.current = modalSig;
  }

  return (
    <section className="bo-page bo-list">
      <PageTitle actions={canCreate && (
        <PlainButton icon="pi pi-plus" label={t('common.create')} onClick={() => navigate(`/${entity.name}/create`)} data-testid="list-create" />
      )}>{title}</PageTitle>

      <div className="bo-toolbar">
        <span className="p-input-icon-left bo-search">
          <i className="pi pi-search" aria-hidden="true" />
          <input className="p-inputtext p-component" type="search" aria-label={t('common.search')} placeholder={t('common.search')}
            value={searchText} onChange={(e) => setSearchText(e.target.value)} />
        </span>
        <PlainButton type="button" icon="pi pi-filter" outlined={!showFilters} label={t('list.filters')} aria-expanded={showFilters}
          badge={Object.keys(view.filter).length ? String(Object.keys(view.filter).length) : undefined}
          onClick={() => setShowFilters((s) => !s)} severity="secondary" />
        {Object.keys(view.filter).length > 0 && (
          <PlainButton type="button" text label={t('list.clear_filters')} onClick={() => update({ filter: {} })} severity="secondary" />
        )}
        <span className="bo-toolbar-spacer" />
        <Suspense fallback={<ColumnPickerPending label={t('list.columns')} count={cols.length - cols.filter((c) => hidden.includes(c.name)).length} />}>
          <ColumnPicker
            label={t('list.columns')}
            value={cols.filter((c) => !hidden.includes(c.name)).map((c) => c.name)}
            options={cols.filter((c) => fieldEnabled(c.field, site)).map((c) => ({ label: fieldLabel(t, entity.name, c.name, c.field, lang), value: c.name }))}
            onChange={(shown) => update({ hiddenColumns: cols.map((c) => c.name).filter((n) => !shown.includes(n)) })}
          />
        </Suspense>
        {!modal && <ListExport entity={entity} query={exportQuery(request)} />}
        <PlainButton type="button" icon="pi pi-refresh" text rounded severity="secondary" aria-label={t('related.refresh')} onClick={() => setReload((r) => r + 1)} />
      </div>

      {showFilters && <Suspense fallback={null}><ListFilters entity={entity} related={related} names={filterNames} filter={view.filter} onChange={(filter) => update({ filter })} /></Suspense>}

      {error && <p role="alert" className="bo-error-text">{error.message}</p>}

      <div className={`bo-table-wrap ${loading ? 'is-loading' : ''}`} aria-busy={loading}>
        <table className="bo-table" data-testid="entity-list">
          <thead>
            {table.getHeaderGroups().map((g) => (
              <tr key={g.id}>
                {g.headers.map((h) => {
                  const dir = h.column.getIsSorted();
                  return (
                    <th key={h.id} scope="col" className={numericIds.has(h.column.id) ? 'bo-num-cell' : undefined} style={widths.has(h.column.id) ? { width: widths.get(h.column.id), minWidth: widths.get(h.column.id) } : undefined} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
                      <button type="button" className="bo-sort" onClick={h.column.getToggleSortingHandler()}>
                        <table.FlexRender header={h} />
                        <i className={`pi ${dir === 'asc' ? 'pi-sort-amount-up-alt' : dir === 'desc' ? 'pi-sort-amount-down' : 'pi-sort-alt bo-sort-idle'}`} aria-hidden="true" />
                      </button>
                    </th>
                  );
                })}
                {rowMenu && <th scope="col" className="bo-row-menu-cell"><span className="bo-sr-only">{t('list.row_actions')}</span></th>}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} tabIndex={0} className="bo-row-link" onClick={() => open(row.original)}
                onKeyDown={(e) => { if (e.key === 'Enter') open(row.original); }}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={numericIds.has(cell.column.id) ? 'bo-num-cell' : undefined}><table.FlexRender cell={cell} /></td>
                ))}
                {rowMenu && <td className="bo-row-menu-cell">{rowMenus.button(Number(row.original.id), String(row.original[entity.titleField] ?? ''))}</td>}
              </tr>
            ))}
            {result && result.rows.length === 0 && (
              <tr><td colSpan={table.getVisibleLeafColumns().length + (rowMenu ? 1 : 0)} className="bo-empty">{t('list.empty')}</td></tr>
            )}
          </tbody>
        </table>
      </div>

      <div className="bo-pager" role="navigation" aria-label={t('list.page')}>
        <span className="bo-muted" data-testid="list-total">{total.toLocaleString('en-US')} {t('list.records')}</span>
        <span className="bo-toolbar-spacer" />
        <label htmlFor="page-size" className="bo-muted">{t('list.rows_per_page')}</label>
        <select id="page-size" className="p-inputtext p-component p-inputtext-sm" value={pageSize} onChange={(e) => table.setPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
        <PlainButton type="button" icon="pi pi-angle-double-left" text rounded aria-label={t('list.first_page')} disabled={view.page <= 1} onClick={() => update({ page: 1 })} />
        <PlainButton type="button" icon="pi pi-angle-left" text rounded aria-label={t('list.prev_page')} disabled={view.page <= 1} onClick={() => update({ page: view.page - 1 })} />
        <span data-testid="list-page">{t('list.page')} {view.page} {t('list.of')} {pageCount}</span>
        <PlainButton type="button" icon="pi pi-angle-right" text rounded aria-label={t('list.next_page')} disabled={view.page >= pageCount} onClick={() => update({ page: view.page + 1 })} />
        <PlainButton type="button" icon="pi pi-angle-double-right" text rounded aria-label={t('list.last_page')} disabled={view.page >= pageCount} onClick={() => update({ page: pageCount })} />
      </div>
      {rowMenus.menu}
      {modal && (
        <Suspense fallback={null}>
          <EntityForm
            key={opened.current}
            meta={meta}
            type={modal.type}
            id={modal.id}
            presentation="modal"
            guardRoute
            onSaved={(row, type) => {
              setReload((r) => r + 1);
              if (type === 'create') {
                created.current = Number(row.id);
                navigate(`/${entity.name}/${String(row.id)}`, { replace: true });
              }
            }}
            onDeleted={() => setReload((r) => r + 1)}
            onClose={() => { created.current = null; navigate(listPath); }}
          />
        </Suspense>
      )}
    </section>
  );
}
