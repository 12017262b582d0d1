import type { WritableAtom } from 'jotai';
import { atomWithStorage, createJSONStorage, RESET } from 'jotai/utils';
import { DEFAULT_TABLE_VIEW, TABLE_VIEW_PREFIX, type TableView } from './table-view.ts';

export { DEFAULT_TABLE_VIEW, TABLE_VIEW_PREFIX, type TableView } from './table-view.ts';

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
