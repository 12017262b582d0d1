import type { MenuItem } from '../menu/menu-types.ts';

type Can = (menuKey: string, flag: 'view' | 'edit') => boolean;

/**
 * Stock screens that are not one entity's list (web/src/pages/stock), offered
 * in the purchasing and stock group under the permission their data needs:
 * the day's movements read the ledger, the import creates products.
 */
export function addStockScreens(menu: MenuItem[], can: Can): void {
  type Item = MenuItem['submenu'][number];
  const items: (Item | false)[] = [
    can('stock_movement', 'view') && { keyAction: 'incoming', label: { th: 'สินค้าเข้า', en: 'Incoming' }, path: '/incoming', icon: 'pi pi-download' },
    can('stock_movement', 'view') && { keyAction: 'outgoing', label: { th: 'สินค้าออก', en: 'Outgoing' }, path: '/outgoing', icon: 'pi pi-upload' },
    can('product', 'edit') && { keyAction: 'product_import', label: { th: 'นำเข้าสินค้า', en: 'Import products' }, path: '/product/import', icon: 'pi pi-file-import' },
  ];
  const shown = items.filter((x): x is Item => x !== false);
  const group = menu.find((g) => g.key === 'purchasing_stock');
  if (group) group.submenu.push(...shown);
}
