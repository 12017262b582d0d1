// Without jotai: the boot entry (web/src/boot.ts) reads a list's stored view to ask for its first page early.

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
  /** A month "YYYY-MM" (the report parameter's form). */
  expirationMonth: string | number | null;
  /** Column names hidden by the user (generic list). */
  hiddenColumns?: string[];
  pageSize?: number;
}

export const DEFAULT_TABLE_VIEW: TableView = {
  search: '', filter: {}, sort: '', page: 1, offSet: 0,
  shelfLifeMonth: null, selectedInventory: null, isFilterStock: false, selectYear: null, selectMachinary: null, expirationMonth: null,
};

export const TABLE_VIEW_PREFIX = 'tableView:';

/** The stored view of a path as the atom of table-view-memory.ts reads it on start (JSON in sessionStorage, else the default). */
export function storedTableView(path: string): TableView {
  try {
    const raw = sessionStorage.getItem(`${TABLE_VIEW_PREFIX}${path}`);
    return raw === null ? DEFAULT_TABLE_VIEW : (JSON.parse(raw) as TableView);
  } catch {
    return DEFAULT_TABLE_VIEW;
  }
}
