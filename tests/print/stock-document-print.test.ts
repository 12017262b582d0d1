/**
 * A stock document's paper says where the goods go (issue 47): the header of a goods receipt names its
 * warehouse, a transfer's names the warehouse the goods leave and the one they enter, in the print's
 * language, taken from the schema's `document.stock` key (no document named in the print code); in English a unit
 * copied from the product prints as the product's English unit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { pdfText, squeeze } from '../support/pdf-text.ts';

describe.each(testDialects())('stock document print on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let from: number, to: number, product: number;
  const name = async (inventory: number) => { const r = await c.ok(c.call('GET', `/api/inventory/${inventory}`, c.admin)); return `${r.code} ${r.name}`; };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const company = await c.company();
    from = await c.inventory(company);
    to = await c.inventory(company);
    product = await c.product();
  });
  afterAll(async () => t?.close());

  it('a goods receipt names the warehouse it received into', async () => {
    const gr = await c.receive(from, [{ product_id: product, qty: 5, price: 10 }]);
    const text = squeeze(pdfText(await c.call('GET', `/api/goods_receipt/${gr.id}/pdf?lang=th`, c.admin)));
    expect(text).toContain(squeeze(await name(from)));
    expect(text).not.toContain(squeeze(await name(to)));
  });

  it("in English a line's unit is the product's English unit, in Thai its own (issue 47 §4: units follow the language)", async () => {
    expect((await c.call('PATCH', `/api/product/${product}`, c.admin, { unit_en: 'roll' })).statusCode).toBe(200);
    const gr = await c.receive(from, [{ product_id: product, qty: 3, price: 10 }]);
    const lines = (await c.ok(c.call('GET', `/api/goods_receipt/${gr.id}`, c.admin))).items as { unit: string }[];
    expect(lines[0]!.unit).toBe('ม้วน');
    const en = pdfText(await c.call('GET', `/api/goods_receipt/${gr.id}/pdf?lang=en`, c.admin));
    expect(en).toMatch(/\broll\b/);
    expect(squeeze(en)).not.toContain('ม้วน');
    expect(squeeze(pdfText(await c.call('GET', `/api/goods_receipt/${gr.id}/pdf?lang=th`, c.admin)))).toContain('ม้วน');
  });

  it('a transfer names both warehouses, each under its own label, in Thai and in English', async () => {
    const tr = await c.posted('internal_product_transfer', { from_inventory_id: from, to_inventory_id: to }, [{ product_id: product, qty: 2 }]);
    const th = squeeze(pdfText(await c.call('GET', `/api/internal_product_transfer/${tr.id}/pdf?lang=th`, c.admin)));
    expect(th).toContain(squeeze(`จากคลัง ${await name(from)}`));
    expect(th).toContain(squeeze(`ไปยังคลัง ${await name(to)}`));
    const en = squeeze(pdfText(await c.call('GET', `/api/internal_product_transfer/${tr.id}/pdf?lang=en`, c.admin)));
    expect(en).toContain(squeeze(`From inventory ${await name(from)}`));
    expect(en).toContain(squeeze(`To inventory ${await name(to)}`));
  });
});
