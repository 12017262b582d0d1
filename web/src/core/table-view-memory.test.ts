// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest';
import { createStore } from 'jotai';
import { DEFAULT_TABLE_VIEW, TABLE_VIEW_PREFIX, nextView, tableViewAtom } from './table-view-memory.ts';

describe('table view memory', () => {
  beforeEach(() => {
    sessionStorage.clear();
    tableViewAtom.remove('/customer');
    tableViewAtom.remove('/supplier');
  });

  it('keeps every view field of the spec, per path', () => {
    expect(Object.keys(DEFAULT_TABLE_VIEW).sort()).toEqual(
      ['expirationMonth', 'filter', 'isFilterStock', 'offSet', 'page', 'search', 'selectMachinary', 'selectYear', 'selectedInventory', 'shelfLifeMonth', 'sort'].sort(),
    );
    const store = createStore();
    store.set(tableViewAtom('/customer'), nextView(DEFAULT_TABLE_VIEW, { search: 'สยาม', sort: '-code' }));
    expect(store.get(tableViewAtom('/customer')).search).toBe('สยาม');
    expect(store.get(tableViewAtom('/supplier'))).toEqual(DEFAULT_TABLE_VIEW);
  });

  it('is backed by storage, so coming back (even after a reload) restores the view', () => {
    const first = createStore();
    const view = nextView(nextView(DEFAULT_TABLE_VIEW, { filter: { province: { _icontains: 'ชล' } }, pageSize: 25 }), { page: 3 });
    first.set(tableViewAtom('/customer'), view);
    expect(JSON.parse(sessionStorage.getItem(`${TABLE_VIEW_PREFIX}/customer`)!)).toMatchObject({ page: 3, offSet: 50 });

    tableViewAtom.remove('/customer'); // as after a reload: a fresh atom and store
    const second = createStore();
    expect(second.get(tableViewAtom('/customer'))).toMatchObject({ page: 3, offSet: 50, filter: { province: { _icontains: 'ชล' } } });
  });

  it('goes back to page 1 when search, filter or sort change, but not when the page changes', () => {
    const onPage4 = nextView(DEFAULT_TABLE_VIEW, { page: 4 });
    expect(onPage4.page).toBe(4);
    expect(onPage4.offSet).toBe(150);
    expect(nextView(onPage4, { search: 'x' }).page).toBe(1);
    expect(nextView(onPage4, { sort: 'name_th' }).page).toBe(1);
    expect(nextView(onPage4, { filter: { a: { _eq: 1 } } }).offSet).toBe(0);
    expect(nextView(onPage4, { hiddenColumns: ['phone'] }).page).toBe(4);
  });
});
