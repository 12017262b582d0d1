/**
 * Issue 9: the finance screens that are not an entity's list appear in the menu of whoever may view
 * their entity, and their endpoints are in the OpenAPI description.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

describe.each(testDialects())('finance menu entries on %s', (dialect) => {
  let t: TestApp;
  let c: Client;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
  });
  afterAll(async () => t?.close());

  const paths = async (h: Record<string, string>) => {
    const res = await c.call('GET', '/api/menu', h);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { submenu: { path: string }[] }[]).flatMap((g) => g.submenu.map((s) => s.path));
  };

  it('shows the create-from screens and the collection summary by the rights on their documents', async () => {
    const cashier = await c.staff('fm_cashier', { receipt: { view: true, edit: true }, billing_note: { view: true } });
    const mine = await paths(cashier.headers);
    // the create-from entries come from the schemas' document.from[].menu (receipt ← billing note and ← sales order)
    expect(mine).toEqual(expect.arrayContaining(['/billing_note', '/receipt', '/receipt/billing_note', '/receipt/sales_order', '/collection_summary']));
    expect(mine).not.toContain('/tax_invoice/sales_order');
    const clerk = await c.staff('fm_clerk', { tax_invoice: { view: true } });
    expect((await paths(clerk.headers)).sort()).toEqual(['/tax_invoice', '/tax_invoice/sales_order']);
  });

  it('the sales group reads in work order, from the schemas\' menuOrder, each screen after its document', async () => {
    const res = await c.call('GET', '/api/menu', c.admin);
    const sales = (res.json().data as { key: string; submenu: { path: string }[] }[]).find((g) => g.key === 'sales')!;
    expect(sales.submenu.map((s) => s.path)).toEqual([
      '/quotation', '/sales_order', '/billing_note', '/billing_note/tax_invoice', '/receipt', '/receipt/billing_note', '/receipt/sales_order', '/tax_invoice', '/tax_invoice/sales_order',
      '/credit_note', '/debit_note', '/withholding_tax', '/collection_summary',
    ]);
  });

  it('a portal customer\'s menu has none of them', async () => {
    const me = await c.customerUser(await c.customer());
    expect(await paths(me.headers)).not.toContain('/collection_summary');
  });

  it('describes the create-from and report endpoints in OpenAPI', async () => {
    const spec = (await c.call('GET', '/api/docs/json', c.admin)).json();
    for (const path of ['/api/receipt/from/billing_note', '/api/receipt/from/sales_order', '/api/billing_note/from/sales_order', '/api/credit_note/from/tax_invoice']) {
      expect(Object.keys(spec.paths[path] ?? {}), path).toEqual(['get', 'post']);
    }
    expect(Object.keys(spec.paths['/api/report/collection_summary'])).toEqual(['get']);
  });
});
