import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';
import { overrideVersion } from '../../server/meta/schema-overrides.ts';

describe.each(testDialects())('page settings API (%s)', (dialect) => {
  let t: TestApp;
  let c: Client;
  beforeAll(async () => { t = await createTestApp(dialect); c = new Client(t); });
  afterAll(async () => t?.close());

  const put = (entity: string, body: unknown) => c.call('PUT', `/api/page_setting/${entity}`, c.admin, body);
  const meta = async (entity: string) => (await c.call('GET', `/api/meta/entities/${entity}`, c.admin)).json().data.entity;
  const fieldOf = (res: { json(): any }, name: string) => res.json().data.fields.find((f: { name: string }) => f.name === name);

  it('lists the pages that can be customised, with how many overrides each has', async () => {
    const res = await c.call('GET', '/api/page_setting', c.admin);
    expect(res.statusCode).toBe(200);
    const rr = res.json().data.find((p: { name: string }) => p.name === 'return_reason');
    expect(rr).toMatchObject({ kind: 'master', overrides: 0, label: { en: 'Return reason' } });
  });

  it('saves label, required, width, hidden and page settings; the merged schema and the API follow at once', async () => {
    const res = await put('return_reason', {
      fields: {
        name_en: { label: { th: 'ชื่ออังกฤษ', en: 'English name' }, width: 220, hidden: 'list' },
        note: { required: true },
        code: { label: { th: 'รหัส', en: 'Code' } }, // the file's own value: stores nothing
      },
      page: { pageSize: 2, defaultSort: '-code' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const nameEn = fieldOf(res, 'name_en');
    expect(nameEn.file.label.en).toBe('Name (English)');
    expect(nameEn.merged).toMatchObject({ label: { en: 'English name' }, width: 220, hidden: 'list' });
    expect(nameEn.overridden.sort()).toEqual(['hidden', 'label', 'width']);
    expect(fieldOf(res, 'code').overridden).toEqual([]);
    expect(res.json().data.page.overridden.sort()).toEqual(['defaultSort', 'pageSize']);

    const e = await meta('return_reason');
    expect(e.fields.name_en).toMatchObject({ label: { en: 'English name' }, width: 220, listHidden: true });
    expect(e.list.columns).not.toContain('name_en');
    // required is required by the API
    const missing = await c.call('POST', '/api/return_reason', c.admin, { code: 'PS1', name_th: 'หนึ่ง' });
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect(missing.json().error.details.fields).toContainEqual(expect.objectContaining({ field: 'note', code: 'required' }));
    // hidden changes nothing about writing: name_en is still accepted
    for (const code of ['PS1', 'PS2', 'PS3']) await c.make('return_reason', { code, name_th: code, name_en: `n ${code}`, note: 'x' });
    // the page size and the default sort apply to the list API
    const list = await c.call('GET', '/api/return_reason', c.admin);
    expect(list.json().data.map((r: { code: string }) => r.code)).toEqual(['PS3', 'PS2']);
  });

  it('takes and answers the issue\'s contract shape: fields with hidden/order, list and form', async () => {
    const res = await put('prospect_type', {
      fields: {
        name_en: { hidden: 'list', order: 1, width: 180 },
        name_th: { label: { th: 'ชื่อประเภท', en: 'Type name' }, order: 2 },
      },
      list: { columns: ['code', 'name_th'], sort: '-code', pageSize: 10 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const e = await meta('prospect_type');
    expect(Object.keys(e.fields).slice(0, 2)).toEqual(['name_en', 'name_th']);
    expect(e.fields.name_en).toMatchObject({ listHidden: true, width: 180 });
    expect(e).toMatchObject({ defaultSort: '-code', list: { columns: ['code', 'name_th'], pageSize: 10 } });
    const settings = (await c.call('GET', '/api/page_setting/prospect_type', c.admin)).json().data.settings;
    expect(settings.fields.name_en).toMatchObject({ hidden: 'list', order: 1, width: 180 });
    expect(settings.fields.name_th).toMatchObject({ label: { en: 'Type name' }, order: 2, hidden: false });
    expect(settings.list).toEqual({ columns: ['code', 'name_th'], sort: '-code', pageSize: 10 });
    // hidden: false shows the field again
    expect((await put('prospect_type', { fields: { name_en: { hidden: false } }, list: { columns: ['code', 'name_th'] } })).statusCode).toBe(200);
    expect((await meta('prospect_type')).fields.name_en.listHidden).toBeFalsy();
    // words the contract does not have are named
    const bad = await put('prospect_type', { list: { colour: 'red' } });
    expectError(bad, 400, 'UNKNOWN_FIELD');
    expect((await c.call('DELETE', '/api/page_setting/prospect_type', c.admin)).statusCode).toBe(200);
  });

  it('a save on one page keeps the overrides of every other page', async () => {
    const res = await put('source_type', { page: { label: { th: 'ที่มา', en: 'Where from' } } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await meta('source_type')).label.en).toBe('Where from');
    expect((await meta('return_reason')).fields.name_en.label.en).toBe('English name');
    const pages = (await c.call('GET', '/api/page_setting', c.admin)).json().data;
    expect(pages.find((p: { name: string }) => p.name === 'return_reason').overrides).toBe(6);
    expect(pages.find((p: { name: string }) => p.name === 'source_type').overrides).toBe(1);
  });

  it('a field made read-only is refused on write; a default fills it on create', async () => {
    const res = await put('return_reason', { fields: { name_en: { label: { th: 'ชื่ออังกฤษ', en: 'English name' } }, note: { required: true }, sort_order: { readOnly: true, default: 7 } }, page: { pageSize: 2, defaultSort: '-code' } });
    expect(res.statusCode, res.body).toBe(200);
    const refused = await c.call('POST', '/api/return_reason', c.admin, { code: 'PS4', name_th: 'สี่', note: 'x', sort_order: 3 });
    expectError(refused, 400, 'READ_ONLY_FIELD');
    const id = await c.make('return_reason', { code: 'PS4', name_th: 'สี่', note: 'x' });
    expect((await c.call('GET', `/api/return_reason/${id}`, c.admin)).json().data.sort_order).toBe(7);
  });

  it('refuses unknown fields and properties, and values the rules do not allow, writing nothing', async () => {
    const before = await overrideVersion(t.db);
    expectError(await put('return_reason', { fields: { nope: { hidden: 'list' } } }), 400, 'UNKNOWN_FIELD');
    expectError(await put('return_reason', { fields: { code: { type: 'integer' } } }), 400, 'UNKNOWN_FIELD');
    expectError(await put('return_reason', { page: { columns: ['code'] } }), 400, 'UNKNOWN_FIELD');
    expectError(await put('no_such_page', { page: {} }), 404, 'NOT_FOUND');
    const bad = await put('return_reason', { fields: { code: { width: 5, required: false }, sort_order: { default: 'many' } }, page: { pageSize: 9999, listColumns: ['gone'] } });
    expectError(bad, 400, 'VALIDATION_FAILED');
    const named = bad.json().error.details.fields.map((f: { field: string }) => f.field).sort();
    expect(named).toEqual(['fields.code.required', 'fields.code.width', 'fields.sort_order.default', 'page.listColumns', 'page.pageSize']);
    // a field the file makes read-only (a document number) stays read-only
    const ro = await put('sales_order', { fields: { doc_no: { readOnly: false } } });
    expectError(ro, 400, 'VALIDATION_FAILED');
    expect(ro.json().error.details.fields[0]).toMatchObject({ field: 'fields.doc_no.readOnly', code: 'page_setting' });
    // a required field hidden from the form would make the form unusable, unless a default fills it
    const hiddenRequired = await put('return_reason', { fields: { note: { required: true, hidden: 'form' } } });
    expectError(hiddenRequired, 400, 'VALIDATION_FAILED');
    expect(hiddenRequired.json().error.details.fields).toEqual([expect.objectContaining({ field: 'fields.note.hidden', code: 'page_setting' })]);
    expect(await overrideVersion(t.db)).toBe(before);
    const withDefault = await put('return_reason', { fields: { name_en: { label: { th: 'ชื่ออังกฤษ', en: 'English name' } }, note: { required: true, hidden: 'form', default: '-' }, sort_order: { readOnly: true, default: 7 } }, page: { pageSize: 2, defaultSort: '-code' } });
    expect(withDefault.statusCode, withDefault.body).toBe(200);
    const made = await c.make('return_reason', { code: 'PSD', name_th: 'ค่าเริ่มต้น' });
    expect((await c.call('GET', `/api/return_reason/${made}`, c.admin)).json().data.note).toBe('-');
    await put('return_reason', { fields: { name_en: { label: { th: 'ชื่ออังกฤษ', en: 'English name' } }, note: { required: true }, sort_order: { readOnly: true, default: 7 } }, page: { pageSize: 2, defaultSort: '-code' } });
    expect((await meta('return_reason')).fields.sort_order.default).toBe(7);
  });

  it('resets one field, then the whole page, to the schema file', async () => {
    const one = await c.call('DELETE', '/api/page_setting/return_reason/sort_order', c.admin);
    expect(one.statusCode, one.body).toBe(200);
    expect(fieldOf(one, 'sort_order').overridden).toEqual([]);
    expect(fieldOf(one, 'note').overridden).toEqual(['required']);
    const e = await meta('return_reason');
    expect(e.fields.sort_order.readOnly).toBeUndefined();
    expect(e.fields.note.required).toBe(true);
    expectError(await c.call('DELETE', '/api/page_setting/return_reason/nope', c.admin), 400, 'UNKNOWN_FIELD');
    const all = await c.call('DELETE', '/api/page_setting/return_reason', c.admin);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.fields.every((f: { overridden: string[] }) => f.overridden.length === 0)).toBe(true);
    expect((await meta('return_reason')).fields.note.required).toBeUndefined();
    expect((await meta('source_type')).label.en).toBe('Where from');
    expect((await c.call('POST', '/api/return_reason', c.admin, { code: 'PS5', name_th: 'ห้า' })).statusCode).toBe(201);
  });

  it('the product picker of a document\'s lines offers only the products its settings allow, and the server holds to it', async () => {
    const page = await c.call('GET', '/api/page_setting/quotation', c.admin);
    expect(page.json().data.productPicker).toEqual({ entity: 'quotation_item', field: 'product_id' });
    expect((await c.call('GET', '/api/page_setting/return_reason', c.admin)).json().data.productPicker).toBeNull();
    const company = await c.company();
    const customer = await c.customer();
    const asset = await c.product({ product_class: 'asset' });
    const goods = await c.product({ product_class: 'class_a' });
    const saved = await put('quotation_item', { fields: { product_id: { linkFilter: { product_class: 'asset', is_active: true }, pickerColumns: ['code', 'unit'] } } });
    expect(saved.statusCode, saved.body).toBe(200);
    const link = (await meta('quotation_item')).fields.product_id;
    expect(link).toMatchObject({ linkFilter: { product_class: 'asset', is_active: true }, pickerColumns: ['code', 'unit'] });
    const quote = (productId: number) => c.call('POST', '/api/quotation', c.admin, { your_company_id: company, customer_id: customer, items: [{ product_id: productId, qty: 1, price: 10 }] });
    expect((await quote(asset)).statusCode).toBe(201);
    const refused = await quote(goods);
    expectError(refused, 400, 'VALIDATION_FAILED');
    expect(refused.json().error.details.fields[0]).toMatchObject({ field: 'items.0.product_id', code: 'link_filter' });
    // conditions name real product fields; columns too; at most four
    const bad = await put('quotation_item', { fields: { product_id: { linkFilter: { colour: 'red' }, pickerColumns: ['code', 'unit', 'price', 'barcode', 'name_en'] } } });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.json().error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['fields.product_id.linkFilter', 'fields.product_id.pickerColumns']);
    // a link's own file conditions cannot be dropped (a prospect's contact of its company)
    expect((await meta('prospect')).fields.contact_id.linkFilter).toBeTruthy();
    expectError(await put('prospect', { fields: { contact_id: { linkFilter: { is_active: true } } } }), 400, 'VALIDATION_FAILED');
    await c.call('DELETE', '/api/page_setting/quotation_item/product_id', c.admin);
    expect((await quote(goods)).statusCode).toBe(201);
  });

  it('needs view on page_setting to read and edit to change', async () => {
    const viewOnly = await c.role('page viewer', { page_setting: { view: true }, return_reason: { view: true } });
    const none = await c.role('no pages', { return_reason: { view: true, edit: true } });
    await c.user('pageviewer', { role_id: viewOnly });
    await c.user('nopages', { role_id: none });
    const viewer = await c.signIn('pageviewer');
    const other = await c.signIn('nopages');
    expect((await c.call('GET', '/api/page_setting/return_reason', viewer)).statusCode).toBe(200);
    expectError(await c.call('PUT', '/api/page_setting/return_reason', viewer, { page: { pageSize: 10 } }), 403, 'FORBIDDEN');
    expectError(await c.call('DELETE', '/api/page_setting/return_reason', viewer), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/page_setting', other), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/page_setting/return_reason', other), 403, 'FORBIDDEN');
    // the menu lists the screen under settings only for roles that may view it
    const menuKeys = async (h: Record<string, string>) => ((await c.call('GET', '/api/menu', h)).json().data as { key: string; submenu: { keyAction: string }[] }[])
      .flatMap((g) => g.submenu.map((m) => `${g.key}/${m.keyAction}`));
    expect(await menuKeys(viewer)).toContain('settings/page_setting');
    expect(await menuKeys(c.admin)).toContain('settings/page_setting');
    expect(await menuKeys(other)).not.toContain('settings/page_setting');
  });
});
