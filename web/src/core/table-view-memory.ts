import type { WritableAtom } from 'jotai';
import { atomWithStorage, createJSONStorage, RESET } from 'jotai/utils';

/** The table view choices the product remembers per path (spec section 1). */
export interface TableView {
  search: string;
  filter: Record<string, unknown>;
  sort: string;
  page: number;
  offSet: number;
  shelfLifeMonth: number | null;
  selectedInventory: number | null;
  isFilterStock: boolean;
  selectYear: number | null;
  selectMachinary: number | null;
  expirationMonth: number | null;
  /** Column names hidden by the user (generic list). */
  hiddenColumns?: string[];
  pageSize?: number;
}

export const DEFAULT_TABLE_VIEW: TableView = {
  search: '', filter: {}, sort: '', page: 1, offSet: 0,
  shelfLifeMonth: null, selectedInventory: null, isFilterStock: false, selectYear: null, selectMachinary: null, expirationMonth: null,
};

export const TABLE_VIEW_PREFIX = 'tableView:';

const storage = createJSONStorage<TableView>(() => sessionStorage);

type ViewAtom = WritableAtom<TableView, [TableView | typeof RESET | ((prev: TableView) => TableView | typeof RESET)], void>;
const family = new Map<string, ViewAtom>();

/** One storage-backed atom per path (an atom family); coming back to a list restores its view. */
export function tableViewAtom(path: string): ViewAtom {
  let a = family.get(path);
  if (!a) {
    a = atomWithStorage<TableView>(`${TABLE_VIEW_PREFIX}${path}`, DEFAULT_TABLE_VIEW, storage, { getOnInit: true });
    family.set(path, a);
  }
  return a;
}
/** Forgets the in-memory atom of a path (the stored view stays). */
tableViewAtom.remove = (path: string): void => { family.delete(path); };

/** Applies a change; a change of anything but the page sends the list back to page 1. */
export function nextView(prev: TableView, change: Partial<TableView>): TableView {
  const merged = { ...DEFAULT_TABLE_VIEW, ...prev, ...change };
  const resetsPage = Object.keys(change).some((k) => k !== 'page' && k !== 'offSet' && k !== 'hiddenColumns');
  if (resetsPage && change.page === undefined) merged.page = 1;
  const size = merged.pageSize ?? 50;
  merged.offSet = (merged.page - 1) * size;
  return merged;
}
