/**
 * The site-setting rules are schema keys, not entity names (issue 35 §1): a new document declared in a test
 * folder with `document.uniqueLineProduct` gets the purchase order's rule (a product on one line only unless
 * the setting allows repeats) with no TypeScript added for it; a declared document without the key does not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';

type Row = Record<string, any>;
const DECLARED = join(import.meta.dirname, 'declared-stock');
const declared = readdirSync(DECLARED).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(DECLARED, f), 'utf8')) as Row);
// stock_return with the purchase order's rule; its lines entity unchanged
const withRule = declared.map((e) => (e.name === 'stock_return'
  ? { ...e, document: { ...e.document, uniqueLineProduct: { field: 'product_id', unlessSetting: 'is_po_allow_duplicate_product' } } }
  : e));

describe.each(testDialects())('a site-setting rule declared on a new document on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let wh: number;
  let folder: { dir: string; remove(): void };

  beforeAll(async () => {
    folder = tempSchemasDir(withRule, true);
    t = await createTestApp(dialect, folder.dir);
    c = new StockClient(t);
    wh = await c.inventory(await c.company());
  });
  afterAll(async () => { await t?.close(); folder?.remove(); });

  it('refuses a product on two lines while the setting is off, and allows it once the setting is on', async () => {
    const p = await c.product();
    await c.settings({ is_po_allow_duplicate_product: false });
    const res = await c.call('POST', '/api/stock_return', c.admin, { doc_date: '2026-11-20', inventory_id: wh, items: [{ product_id: p, qty: 1 }, { product_id: p, qty: 2 }] });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.json().error.details.fields.map((f: Row) => [f.field, f.code])).toEqual([['items.1.product_id', 'duplicate']]);
    await c.settings({ is_po_allow_duplicate_product: true });
    const doc = await c.draft('stock_return', { inventory_id: wh }, [{ product_id: p, qty: 1 }, { product_id: p, qty: 2 }]);
    expect(doc.items).toHaveLength(2);
  });

  it('leaves a document without the key alone', async () => {
    await c.settings({ is_po_allow_duplicate_product: false });
    const p = await c.product();
    const doc = await c.draft('goods_receipt', { inventory_id: wh }, [{ product_id: p, qty: 1 }, { product_id: p, qty: 2 }]);
    expect(doc.items).toHaveLength(2);
  });
});
