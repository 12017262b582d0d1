/**
 * Issue 46 §2: the menu and the web's route table are both made from the declared screens: a screen added
 * to the declaration is in both, under the rights it says it needs; the portal's menu comes from it too.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { DECLARED_SCREENS } from '../../engine/schema/declared-screens.ts';
import { loadScreenSet } from '../../engine/schema/screen-loader.ts';
import { readSchemaDir } from '../schema-files.ts';
import { routesOf, ROUTES } from '../../web/src/core/route-table.ts';
import { ROUTE_TITLES } from '../../web/src/core/route-titles.ts';
import { staffMenu } from './session-routes.ts';
import { portalMenu } from './screen-menu.ts';

const registry = new SchemaRegistry(readSchemaDir(resolve(import.meta.dirname, '../../schemas')));
const paths = (menu: ReturnType<typeof staffMenu>, group: string) => menu.find((g) => g.key === group)?.submenu.map((s) => s.path) ?? [];
const everything = { right: () => true, administrator: true };

describe('screens declared once', () => {
  const board = loadScreenSet({ screens: [...DECLARED_SCREENS, {
    name: 'stock_board', title: { th: 'กระดานสต็อก', en: 'Stock board' }, routes: [{ path: '/stock_board', kind: 'stock', screen: 'board' }],
    menu: { group: 'purchasing_stock', key: 'stock_board', icon: 'pi pi-table' }, needs: { right: 'stock_board', flag: 'view' },
  }] });

  it('puts a screen added to the declaration in the menu and in the route table', () => {
    expect(paths(staffMenu(registry, () => true, everything, board), 'purchasing_stock')).toContain('/stock_board');
    expect(routesOf(board)).toContainEqual({ path: '/stock_board', kind: 'stock', screen: 'board', titleKey: 'route.stock_board' });
    // the menu asks for the right the declaration names, with its flag
    const asked: string[] = [];
    const menu = staffMenu(registry, () => true, { right: (key, flag) => { asked.push(`${key}:${flag}`); return key !== 'stock_board'; }, administrator: false }, board);
    expect(paths(menu, 'purchasing_stock')).not.toContain('/stock_board');
    expect(asked).toEqual(expect.arrayContaining(['stock_board:view', 'product:edit', 'product_attribute:view']));
    expect(paths(menu, 'settings')).not.toContain('/custom_field');
  });

  it('the route table and its titles are the declaration\'s, every menu screen has a route', () => {
    expect(ROUTES).toEqual(routesOf(DECLARED_SCREENS));
    expect(ROUTE_TITLES.map((t) => t[0])).toEqual(DECLARED_SCREENS.map((s) => s.name));
    const routed = new Set(ROUTES.map((r) => r.path));
    const menuPaths = staffMenu(registry, () => true, everything).flatMap((g) => g.submenu.map((s) => s.path));
    for (const s of DECLARED_SCREENS.filter((x) => x.menu && !('portal' in x.needs!))) {
      expect(routed.has(s.routes[0]!.path)).toBe(true);
      expect(menuPaths, s.name).toContain(s.routes[0]!.path);
    }
  });

  it('a screen that needs an entity follows it in the menu and is shown only with it', () => {
    const sales = (canView: (n: string) => boolean) => paths(staffMenu(registry, (e) => canView(e.name), everything), 'sales');
    expect(sales(() => true)).toContain('/collection_summary');
    expect(sales((n) => n !== 'billing_note')).not.toContain('/collection_summary');
  });

  it('the portal\'s menu is its declared screens', () => {
    expect(portalMenu()).toEqual([{ key: 'customer_portal', label: { th: 'พอร์ทัลลูกค้า', en: 'Customer portal' }, icon: 'pi pi-briefcase',
      submenu: [{ keyAction: 'billing_note', label: { th: 'ใบวางบิล', en: 'Billing notes' }, path: '/customerpage/{customerId}/bill', icon: 'pi pi-file' }] }]);
  });
});
