/**
 * Issue 50 §6: a posted document's form shows its journal entry (รายการบัญชี) through
 * GET /api/{entity}/{id}/journal: the posting and, after a cancel, its reversal, with each line's account
 * code and name. A role that cannot read the journal does not get the lines this way (403), whatever it
 * may do with the document; a role without the document gets nothing either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('a document\'s journal entry on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let inv: number;
  let product: number;
  let supplier: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    inv = await c.inventory(company);
    product = await c.product({ price: 100 });
    supplier = await c.supplier();
  });
  afterAll(async () => t?.close());

  const journal = (id: number, as = c.admin) => c.call('GET', `/api/goods_receipt/${id}/journal`, as);
  const entries = async (id: number, as = c.admin): Promise<Row[]> => {
    const data = await c.ok(journal(id, as));
    expect(data.entity).toBe('journal_entry');
    return data.entries as Row[];
  };

  it('answers the posting with account code and name, then the reversal after a cancel', async () => {
    const draft = await c.ok(c.call('POST', '/api/goods_receipt', c.admin, { inventory_id: inv, your_company_id: company, supplier_id: supplier, items: [{ product_id: product, qty: 10, price: 60 }] }), 201);
    // a draft has no entry yet
    expect(await entries(draft.id)).toEqual([]);
    await c.ok(c.action('goods_receipt', draft.id, 'approve'));
    const posted = await entries(draft.id);
    expect(posted).toHaveLength(1);
    const [entry] = posted;
    expect(entry).toMatchObject({ status: 'posted', reverses_id: null });
    expect(entry!.doc_no).toMatch(/JV/);
    const byCode = Object.fromEntries(entry!.lines.map((l: Row) => [l.account_code, [l.debit, l.credit]]));
    // Dr สินค้าคงเหลือ 600 / Cr สินค้ารับแล้วยังไม่ได้รับใบแจ้งหนี้ 600 (docs/accounting.md)
    expect(byCode).toEqual({ 1141: [600, 0], 2112: [0, 600] });
    expect(entry!.lines.find((l: Row) => l.account_code === '1141').account_name_th).toBe('สินค้าคงเหลือ');

    await c.ok(c.action('goods_receipt', draft.id, 'cancel'));
    const after = await entries(draft.id);
    expect(after).toHaveLength(2);
    expect(after[1]!.reverses_id).toBe(entry!.id);
    expect(Object.fromEntries(after[1]!.lines.map((l: Row) => [l.account_code, [l.debit, l.credit]]))).toEqual({ 1141: [0, 600], 2112: [600, 0] });
  });

  it('refuses a role that may read the document but not the journal, and one without the document', async () => {
    const gr = await c.posted('goods_receipt', { inventory_id: inv, your_company_id: company, supplier_id: supplier }, [{ product_id: product, qty: 2, price: 60 }]);
    const clerk = await c.staff('clerk', { goods_receipt: { view: true } });
    // the document itself is readable: the books are not, through it either
    expect((await c.call('GET', `/api/goods_receipt/${gr.id}`, clerk.headers)).statusCode).toBe(200);
    expectError(await journal(gr.id, clerk.headers), 403, 'FORBIDDEN');
    const bookkeeper = await c.staff('books', { journal_entry: { view: true } });
    expectError(await journal(gr.id, bookkeeper.headers), 403, 'FORBIDDEN');
    const accountant = await c.staff('acc', { goods_receipt: { view: true }, journal_entry: { view: true } });
    expect(await entries(gr.id, accountant.headers)).toHaveLength(1);
    expectError(await journal(999999), 404, 'NOT_FOUND');
    // the route is in the API's description
    const spec = (await c.call('GET', '/api/docs/json', c.admin)).json();
    expect(Object.keys(spec.paths['/api/goods_receipt/{id}/journal'] ?? {})).toEqual(['get']);
  });
});
