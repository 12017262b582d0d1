/** Issue 35 §1: the web's routes name no entity whose screens are the generic ones; schemas give them. */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { entityOfPath, ROUTES } from './route-table.ts';
import { ROUTE_TITLES } from './route-titles.ts';

const root = resolve(__dirname, '../../..');
const schemas = readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(root, 'schemas', f), 'utf8')) as { name: string; kind: string });

describe('the route table', () => {
  it('lists no generic entity screen: an entity\'s list, form and single-row screen come from its schema', () => {
    // the listed ones are the entities with their own editor (user accounts, roles, types) and the spec's /{entity}/datatable
    const ownEditor = new Set(ROUTES.filter((r) => r.kind === 'admin' && r.entity).map((r) => r.entity));
    const generic = ROUTES.filter((r) => (r.kind === 'entityList' || r.kind === 'entityDetail' || r.kind === 'singleton') && !r.path.endsWith('/datatable') && !ownEditor.has(r.entity));
    expect(generic).toEqual([]);
    // (and the attribute options' page, whose route names the entity it shows so the screen need not)
    expect([...ownEditor].sort()).toEqual(['attribute_option', 'user_account', 'user_role', 'user_type']);
    // the stock documents and the site settings are not named in the table or its titles
    const named = new Set([...ROUTES.map((r) => r.entity), ...ROUTES.map((r) => r.path.split('/')[1]), ...ROUTE_TITLES.map((t) => t[0])]);
    for (const name of ['delivery_order', 'goods_receipt', 'purchase_order', 'internal_product_transfer', 'setting_site']) expect(named.has(name), name).toBe(false);
    // every entity a route names is a schema (schemas/screens/screens.json is checked against them)
    const names = new Set(schemas.map((s) => s.name));
    for (const r of ROUTES.filter((x) => x.entity)) expect(names.has(r.entity!), r.path).toBe(true);
  });

  it('takes a path\'s first word for the entity it shows, unless another screen has that word', () => {
    // (/attachment/{id} is the spec's list of a company's files, /attribute_option its own screen)
    const ownScreen = (name: string) => ['attachment', 'attribute_option'].includes(name);
    for (const s of schemas.filter((e) => e.kind !== 'lines' && !ownScreen(e.name))) {
      expect(entityOfPath(`/${s.name}`), s.name).toBe(s.name);
      expect(entityOfPath(`/${s.name}/12`), s.name).toBe(s.name);
    }
    expect(entityOfPath('/goods_receipt/purchase_order')).toBe('goods_receipt');
    expect(entityOfPath('/product/import')).toBe('product');
    for (const other of ['/', '/outgoing', '/system_log/2026-11-26', '/page_setting', '/collection_summary', '/film_type/3', '/signin', '/customerpage/4/bill']) {
      expect(entityOfPath(other), other).toBeNull();
    }
  });
});
