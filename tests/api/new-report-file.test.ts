/**
 * Adding a report is adding a file: a report file written into the reports
 * folder of a test schemas folder is listed by GET /api/report, has a menu
 * entry at /{name} and answers its API, with no code change.
 */
import { writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SCHEMAS_DIR, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';

const NAME = 'products_per_class_test';
const report = {
  name: NAME,
  label: { th: 'จำนวนสินค้าตามกลุ่ม (ทดสอบ)', en: 'Products per class (test)' },
  menuGroup: 'stock_reports',
  parameters: [{ name: 'only_active', type: 'boolean', label: { th: 'เฉพาะที่ใช้งาน', en: 'Active only' } }],
  source: { from: 'product', as: 'p' },
  where: [{ ifParam: 'only_active', then: { eq: ['p.is_active', { value: true }] } }],
  columns: [
    { key: 'product_class', label: { th: 'กลุ่มสินค้า', en: 'Class' }, type: 'string', expr: 'p.product_class' },
    { key: 'products', label: { th: 'จำนวนสินค้า', en: 'Products' }, type: 'integer', expr: { count: '*' } },
    { key: 'list_value', label: { th: 'ราคารวม', en: 'Price sum' }, type: 'money', expr: { sum: 'p.price' } },
  ],
  sort: [{ key: 'product_class' }],
  totals: ['products', 'list_value'],
  chart: { type: 'pie', label: 'product_class', series: ['products'] },
};

describe.each(testDialects())('a new report file on %s', (dialect) => {
  const schemas = tempSchemasDir([], true);
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  beforeAll(async () => {
    writeFileSync(join(schemas.dir, 'reports', `${NAME}.json`), JSON.stringify(report));
    t = await createTestApp(dialect, schemas.dir);
    const product = (code: string, cls: string, price: number, active = true) => t.app.inject({ method: 'POST', url: '/api/product', headers: t.headers,
      payload: { code, name_th: code, product_class: cls, unit: 'ชิ้น', price, vat_type: 'vat7', is_active: active } });
    for (const [code, cls, price, active] of [['A1', 'class_a', 10.25, true], ['A2', 'class_a', 0.75, false], ['B1', 'class_b', 100, true]] as const) {
      const res = await product(code, cls, price, active);
      if (res.statusCode !== 201) throw new Error(res.body);
    }
  }, 120_000);
  afterAll(async () => { await t?.close(); schemas.remove(); });

  it('is not in the real reports folder (the file alone is enough)', () => {
    expect(existsSync(join(SCHEMAS_DIR, 'reports', `${NAME}.json`))).toBe(false);
  });

  it('is listed, has a menu entry at /{name}, and answers its API', async () => {
    const list = (await get('/api/report')).json().data as { name: string; label: { th: string } }[];
    expect(list.find((r) => r.name === NAME)).toMatchObject({ label: { th: report.label.th }, parameters: report.parameters });
    const menu = (await get('/api/menu')).json().data as { key: string; submenu: { path: string }[] }[];
    expect(menu.find((g) => g.key === 'stock_reports')?.submenu.map((s) => s.path)).toContain(`/${NAME}`);
    const res = await get(`/api/report/${NAME}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.rows).toEqual([
      { product_class: 'class_a', products: 2, list_value: 11 },
      { product_class: 'class_b', products: 1, list_value: 100 },
    ]);
    expect(res.json().data.totals).toEqual({ products: 3, list_value: 111 });
    const active = (await get(`/api/report/${NAME}?only_active=true`)).json();
    expect(active.data.totals).toEqual({ products: 2, list_value: 110.25 });
    expect(active.meta.total_count).toBe(2);
  });
});
