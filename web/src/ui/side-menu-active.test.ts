// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { activeMenuPath } from './SideMenu.tsx';

describe('one menu item lights up at a time', () => {
  const paths = ['/tax_invoice', '/tax_invoice/sales_order', '/receipt', '/receipt/sales_order', '/collection_summary'];
  it('the create-from screen lights itself, not its document\'s list as well', () => {
    expect(activeMenuPath(paths, '/tax_invoice/sales_order')).toBe('/tax_invoice/sales_order');
  });
  it('a record lights its list', () => {
    expect(activeMenuPath(paths, '/tax_invoice/12')).toBe('/tax_invoice');
    expect(activeMenuPath(paths, '/receipt')).toBe('/receipt');
  });
  it('a page of no item lights none, and a name that only starts alike is not under it', () => {
    expect(activeMenuPath(paths, '/receipts')).toBeUndefined();
  });
});
