/**
 * Product attributes (issue 11 §2): attributes of each kind with their options, assigned to
 * products as lines; products filtered by an option through the lines field; the attribute
 * list call; archiving an option or attribute that products use is refused with IN_USE and
 * the number of products.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, q } from '../support/security-fixtures.ts';

describe.each(testDialects())('product attributes on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let film: number;
  let brand: number;
  const opt: Record<string, number> = {};
  const prod: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    film = await c.make('product_attribute', { code: 'FILM', name_th: 'ชนิดฟิล์ม', kind: 'film_type' });
    brand = await c.make('product_attribute', { code: 'BRAND', name_th: 'ยี่ห้อ', name_en: 'Brand', kind: 'brand', sort_order: 1 });
    for (const [code, attr] of [['PET', film], ['PVC', film], ['ACME', brand], ['UNUSED', brand]] as const) {
      opt[code] = await c.make('attribute_option', { attribute_id: attr, code, name_th: `ตัวเลือก ${code}` });
    }
    const product = (code: string, attrs: [number, number][]) => c.make('product', {
      code, name_th: `สินค้า ${code}`, attributes: attrs.map(([attribute_id, option_id]) => ({ attribute_id, option_id })),
    });
    prod.P1 = await product('P1', [[film, opt.PET!], [brand, opt.ACME!]]);
    prod.P2 = await product('P2', [[film, opt.PET!]]);
    prod.P3 = await product('P3', [[film, opt.PVC!]]);
    prod.P4 = await product('P4', []);
  });
  afterAll(async () => t?.close());

  it('stores the values with the product and reads them back', async () => {
    const p1 = (await c.call('GET', `/api/product/${prod.P1}`, c.admin)).json().data;
    expect(p1.attributes.map((l: { attribute_id: number; option_id: number }) => [l.attribute_id, l.option_id])).toEqual([[film, opt.PET], [brand, opt.ACME]]);
  });

  it('replaces a value by a new line for the same attribute (removed lines go first)', async () => {
    const res = await c.call('PATCH', `/api/product/${prod.P4}`, c.admin, { attributes: [{ attribute_id: film, option_id: opt.PVC }] });
    expect(res.statusCode, res.body).toBe(200);
    const again = await c.call('PATCH', `/api/product/${prod.P4}`, c.admin, { attributes: [{ attribute_id: film, option_id: opt.PET }] });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.attributes.map((l: { option_id: number }) => l.option_id)).toEqual([opt.PET]);
    expect((await c.call('PATCH', `/api/product/${prod.P4}`, c.admin, { attributes: [] })).statusCode).toBe(200);
  });

  it('refuses a second value for the same attribute and an option of another attribute', async () => {
    const twice = await c.call('POST', '/api/product', c.admin, { code: 'PX', name_th: 'ซ้ำ', attributes: [{ attribute_id: film, option_id: opt.PET }, { attribute_id: film, option_id: opt.PVC }] });
    expectError(twice, 409, 'CONFLICT');
    const foreign = await c.call('POST', '/api/product', c.admin, { code: 'PY', name_th: 'ผิดคุณสมบัติ', attributes: [{ attribute_id: film, option_id: opt.ACME }] });
    expectError(foreign, 400, 'VALIDATION_FAILED');
    expect((await c.call('GET', `/api/product?filter=${q({ code: { _in: ['PX', 'PY'] } })}`, c.admin)).json().data).toEqual([]);
  });

  it('filters products by an option through the lines field', async () => {
    const codes = async (filter: unknown) => (await c.call('GET', `/api/product?fields=code&sort=code&filter=${q(filter)}`, c.admin)).json().data.map((r: { code: string }) => r.code);
    expect(await codes({ 'attributes.option_id': { _eq: opt.PET } })).toEqual(['P1', 'P2']);
    expect(await codes({ 'attributes.option_id': { _in: [opt.PVC, opt.ACME] } })).toEqual(['P1', 'P3']);
    expect(await codes({ attributes: { option_id: { code: { _eq: 'ACME' } } } })).toEqual(['P1']);
    expect(await codes({ _and: [{ 'attributes.option_id': { _eq: opt.PET } }, { 'attributes.option_id': { _eq: opt.ACME } }] })).toEqual(['P1']);
    // a lines field cannot be compared itself, sorted or read as a field
    expectError(await c.call('GET', `/api/product?filter=${q({ attributes: { _null: true } })}`, c.admin), 400, 'UNKNOWN_FIELD');
    expectError(await c.call('GET', '/api/product?sort=attributes.option_id', c.admin), 400, 'UNKNOWN_FIELD');
  });

  it('lists attributes with options and the products that carry each, except the given ones', async () => {
    const res = await c.call('GET', '/api/product/attribute/list', c.admin);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { code: string; kind: string; options: { code: string; product_ids: number[] }[] }[];
    expect(data.map((a) => [a.code, a.kind])).toEqual([['FILM', 'film_type'], ['BRAND', 'brand']]);
    expect(data[0]!.options.map((o) => [o.code, o.product_ids])).toEqual([['PET', [prod.P1, prod.P2]], ['PVC', [prod.P3]]]);
    expect(data[1]!.options.map((o) => [o.code, o.product_ids])).toEqual([['ACME', [prod.P1]], ['UNUSED', []]]);
    const except = (await c.call('GET', `/api/product/attribute/list?except_product_ids=${encodeURIComponent(JSON.stringify([prod.P1]))}`, c.admin)).json();
    expect(except.data[0].options[0].product_ids).toEqual([prod.P2]);
    expect(except.meta.except_product_ids).toEqual([prod.P1]);
    for (const bad of ['[1,"x"]', 'nope', '{"a":1}', '[-1]']) {
      expectError(await c.call('GET', `/api/product/attribute/list?except_product_ids=${encodeURIComponent(bad)}`, c.admin), 400, 'INVALID_QUERY');
    }
  });

  it('needs view on products and attributes', async () => {
    const noProducts = await c.staff('attr_only', { product_attribute: { view: true } });
    expectError(await c.call('GET', '/api/product/attribute/list', noProducts.headers), 403, 'FORBIDDEN');
    const noAttrs = await c.staff('product_only', { product: { view: true } });
    expectError(await c.call('GET', '/api/product/attribute/list', noAttrs.headers), 403, 'FORBIDDEN');
  });

  it('refuses archiving an option or attribute products use, naming how many', async () => {
    const res = await c.call('DELETE', `/api/attribute_option/${opt.PET}`, c.admin);
    expectError(res, 409, 'IN_USE');
    expect(res.json().error.params).toMatchObject({ reason: 'products', count: 2 });
    expect(res.json().error.details).toEqual({ count: 2 });
    const th = await c.call('DELETE', `/api/attribute_option/${opt.PET}`, { ...c.admin, 'accept-language': 'th' });
    expect(th.json().error.message).toContain('2');
    expect((await c.call('GET', `/api/attribute_option/${opt.PET}`, c.admin)).statusCode).toBe(200);
    expectError(await c.call('DELETE', `/api/product_attribute/${brand}`, c.admin), 409, 'IN_USE');
    // an unused option goes; an archived product no longer counts
    expect((await c.call('DELETE', `/api/attribute_option/${opt.UNUSED}`, c.admin)).statusCode).toBe(200);
    expect((await c.call('DELETE', `/api/product/${prod.P3}`, c.admin)).statusCode).toBe(200);
    expect((await c.call('DELETE', `/api/attribute_option/${opt.PVC}`, c.admin)).statusCode).toBe(200);
  });
});
