/**
 * Custom fields (issue 11 §3): an administrator adds a column to an entity at run time
 * (no restart, both dialects); the field then works everywhere the generic API reaches
 * (write, list, filter, search, CSV/XLSX export, OpenAPI, audit), and removing it hides it
 * while the column keeps its data until it is added again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, csvRows, expectError, q } from '../support/security-fixtures.ts';
import { buildInstance } from '../support/crm-fixtures.ts';
import { refreshOverrides } from '../../server/meta/schema-overrides.ts';

describe.each(testDialects())('custom fields on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let fieldId: number;
  let customerId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
  });
  afterAll(async () => t?.close());

  const addLoyalty = () => c.call('POST', '/api/custom_field', c.admin, {
    entity: 'customer', name: 'loyalty_code', type: 'string', label: { th: 'รหัสสมาชิก', en: 'Loyalty code' },
  });

  it('adds a column online and answers the merged field', async () => {
    const res = await addLoyalty();
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json().data;
    expect(body).toMatchObject({ entity: 'customer', name: 'cf_loyalty_code', type: 'string', active: true });
    expect(body.field).toMatchObject({ type: 'string', label: { th: 'รหัสสมาชิก', en: 'Loyalty code' }, searchable: true });
    fieldId = body.id;
    const meta = (await c.call('GET', '/api/meta/entities/customer', c.admin)).json().data.entity;
    expect(meta.fields.cf_loyalty_code.label.en).toBe('Loyalty code');
    expect(meta.form.sections.at(-1).fields).toEqual(['cf_loyalty_code']);
    expect(meta.list.filters).toContain('cf_loyalty_code');
  });

  it('writes and reads the field through the generic API, list, filter and search', async () => {
    customerId = await c.make('customer', { customer_type: 'individual', code: 'CF001', name_th: 'ลูกค้าฟิลด์เพิ่ม', cf_loyalty_code: 'GOLD-77' });
    await c.make('customer', { customer_type: 'individual', code: 'CF002', name_th: 'ลูกค้าอีกราย', cf_loyalty_code: 'SILVER-1' });
    const one = (await c.call('GET', `/api/customer/${customerId}`, c.admin)).json().data;
    expect(one.cf_loyalty_code).toBe('GOLD-77');
    const filtered = (await c.call('GET', `/api/customer?filter=${q({ cf_loyalty_code: { _eq: 'GOLD-77' } })}&fields=id,code,cf_loyalty_code`, c.admin)).json().data;
    expect(filtered).toEqual([{ id: customerId, code: 'CF001', cf_loyalty_code: 'GOLD-77' }]);
    const searched = (await c.call('GET', '/api/customer?search=SILVER&fields=code', c.admin)).json().data;
    expect(searched.map((r: { code: string }) => r.code)).toEqual(['CF002']);
  });

  it('exports the field in CSV and XLSX', async () => {
    const rows = csvRows(await c.call('GET', `/api/customer/export?format=csv&fields=code,cf_loyalty_code&sort=code&filter=${q({ code: { _starts_with: 'CF' } })}`, c.admin));
    expect(rows.map((r) => Object.values(r))).toEqual([['CF001', 'GOLD-77'], ['CF002', 'SILVER-1']]);
    // without fields, an export has every column, the custom one included
    const all = csvRows(await c.call('GET', `/api/customer/export?format=csv&sort=code&filter=${q({ code: { _eq: 'CF001' } })}`, c.admin));
    expect(all[0]).toMatchObject({ code: 'CF001', cf_loyalty_code: 'GOLD-77' });
    const xlsx = await c.call('GET', `/api/customer/export?format=xlsx&lang=en&fields=code,cf_loyalty_code&sort=code&filter=${q({ code: { _starts_with: 'CF' } })}`, c.admin);
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['Customer code', 'Loyalty code']);
    expect((ws.getRow(2).values as unknown[]).slice(1)).toEqual(['CF001', 'GOLD-77']);
  });

  it('shows the field in the OpenAPI document and the audit log', async () => {
    const doc = (await c.call('GET', '/api/docs/json', c.admin)).json();
    expect(JSON.stringify(doc.components.schemas.customer_create.properties.cf_loyalty_code)).toContain('"maxLength":200');
    expect(doc.components.schemas.customer_patch.properties.cf_loyalty_code).toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/custom_field', '/api/custom_field/{id}', '/api/product/attribute/list']));
    const patched = await c.call('PATCH', `/api/customer/${customerId}`, c.admin, { cf_loyalty_code: 'GOLD-78' });
    expect(patched.statusCode, patched.body).toBe(200);
    const log = await t.db.kysely.selectFrom('system_log').select(['action', 'changes']).where('entity', '=', 'customer').where('record_id', '=', String(customerId)).orderBy('id').execute();
    expect(log.map((r) => r.action)).toEqual(['create', 'update']);
    expect(String(log[1]!.changes)).toContain('GOLD-78');
    expect(String(log[1]!.changes)).toContain('cf_loyalty_code');
    const own = await t.db.kysely.selectFrom('system_log').select('action').where('entity', '=', 'custom_field').execute();
    expect(own.map((r) => r.action)).toContain('custom_field_add');
  });

  it('enforces a required custom field and an enum\'s options', async () => {
    const add = await c.call('POST', '/api/custom_field', c.admin, {
      entity: 'customer', name: 'tier', type: 'enum', required: true, label: { th: 'ระดับ', en: 'Tier' },
      options: [{ value: 'a', label: { th: 'เอ', en: 'A' } }, 'b'],
    });
    expect(add.statusCode, add.body).toBe(201);
    const missing = await c.call('POST', '/api/customer', c.admin, { customer_type: 'individual', code: 'CF003', name_th: 'ไม่มีระดับ' });
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect(missing.json().error.details.fields).toContainEqual(expect.objectContaining({ field: 'cf_tier', code: 'required' }));
    expectError(await c.call('POST', '/api/customer', c.admin, { customer_type: 'individual', code: 'CF003', name_th: 'ระดับผิด', cf_tier: 'z' }), 400, 'VALIDATION_FAILED');
    await c.make('customer', { customer_type: 'individual', code: 'CF003', name_th: 'ระดับบี', cf_tier: 'b' });
    // removed again so the remaining tests can create customers without it
    expect((await c.call('DELETE', `/api/custom_field/${add.json().data.id}`, c.admin)).statusCode).toBe(200);
    await c.make('customer', { customer_type: 'individual', code: 'CF004', name_th: 'หลังลบฟิลด์' });
  });

  it('refuses bad definitions with field codes, never a 500', async () => {
    const bad = async (body: unknown, field: string, code: string) => {
      const res = await c.call('POST', '/api/custom_field', c.admin, body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.json().error.details.fields).toContainEqual(expect.objectContaining({ field, code }));
    };
    const label = { th: 'ทดสอบ', en: 'Test' };
    await bad({ entity: 'customer', name: 'Bad-Name', type: 'string', label }, 'name', 'pattern');
    await bad({ entity: 'customer', name: 'ok', type: 'lines', label }, 'type', 'enum');
    await bad({ entity: 'nothing_here', name: 'ok', type: 'string', label }, 'entity', 'custom_field_entity');
    await bad({ entity: 'quotation_item', name: 'ok', type: 'string', label }, 'entity', 'custom_field_entity');
    await bad({ entity: 'customer', name: 'ok', type: 'enum', label }, 'options', 'custom_field_options');
    await bad({ entity: 'customer', name: 'ok', type: 'string' }, 'label', 'required');
    expectError(await addLoyalty(), 409, 'CONFLICT');
  });

  it('two administrators adding the same field at once: one adds it, the other gets CONFLICT', async () => {
    const body = { entity: 'supplier', name: 'race', type: 'string', label: { th: 'แข่ง', en: 'Race' } };
    const answers = await Promise.all([c.call('POST', '/api/custom_field', c.admin, body), c.call('POST', '/api/custom_field', c.admin, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().error.code).toBe('CONFLICT');
    const id = answers.find((r) => r.statusCode === 201)!.json().data.id;
    expect((await c.call('DELETE', `/api/custom_field/${id}`, c.admin)).statusCode).toBe(200);
  });

  it('is for administrators only', async () => {
    const staff = await c.staff('cf_staff', { customer: { view: true, edit: true } });
    expectError(await c.call('POST', '/api/custom_field', staff.headers, { entity: 'customer', name: 'x', type: 'string', label: { th: 'x', en: 'x' } }), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/custom_field', staff.headers), 403, 'FORBIDDEN');
    expectError(await c.call('DELETE', `/api/custom_field/${fieldId}`, staff.headers), 403, 'FORBIDDEN');
  });

  it('reaches another instance on the same database through the version poll', async () => {
    const other = await buildInstance(t.testDb.url);
    try {
      await refreshOverrides(other.db, other.registry);
      expect(other.registry.get('customer')!.fields.cf_loyalty_code).toBeDefined();
    } finally {
      await other.close();
    }
  });

  it('removing hides the field and keeps its data; adding it again brings the data back', async () => {
    const del = await c.call('DELETE', `/api/custom_field/${fieldId}`, c.admin);
    expect(del.statusCode, del.body).toBe(200);
    const one = (await c.call('GET', `/api/customer/${customerId}`, c.admin)).json().data;
    expect(one).not.toHaveProperty('cf_loyalty_code');
    expectError(await c.call('GET', `/api/customer?filter=${q({ cf_loyalty_code: { _eq: 'GOLD-78' } })}`, c.admin), 400, 'UNKNOWN_FIELD');
    expectError(await c.call('PATCH', `/api/customer/${customerId}`, c.admin, { cf_loyalty_code: 'X' }), 400, 'UNKNOWN_FIELD');
    const doc = (await c.call('GET', '/api/docs/json', c.admin)).json();
    expect(doc.components.schemas.customer_create.properties.cf_loyalty_code).toBeUndefined();
    const raw = await t.db.kysely.selectFrom('customer').select('cf_loyalty_code' as never).where('id', '=', customerId).executeTakeFirst();
    expect(raw).toEqual({ cf_loyalty_code: 'GOLD-78' });
    expectError(await c.call('DELETE', `/api/custom_field/${fieldId}`, c.admin), 404, 'NOT_FOUND');

    // a different type cannot take over the column; the same type brings it back
    const wrongType = await c.call('POST', '/api/custom_field', c.admin, { entity: 'customer', name: 'loyalty_code', type: 'integer', label: { th: 'x', en: 'x' } });
    expectError(wrongType, 400, 'VALIDATION_FAILED');
    const again = await addLoyalty();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().meta.reactivated).toBe(true);
    expect((await c.call('GET', `/api/customer/${customerId}`, c.admin)).json().data.cf_loyalty_code).toBe('GOLD-78');
    const list = (await c.call('GET', '/api/custom_field?entity=customer', c.admin)).json().data;
    expect(list.map((f: { name: string; active: boolean }) => [f.name, f.active])).toEqual([['cf_loyalty_code', true], ['cf_tier', false]]);
  });
  it('a backup restored into another database brings the custom columns, their data and the fields', async () => {
    const entry = await t.admin.store.create(t.db, { id: null, name: 'test' }, 'manual');
    const other = await createTestApp(dialect);
    try {
      expect(other.registry.get('customer')!.fields.cf_loyalty_code).toBeUndefined();
      const report = await other.admin.restore(t.admin.store.pathOf(entry), { id: null, name: 'test', ip: null });
      expect(report.skippedColumns).toEqual([]);
      expect(other.registry.get('customer')!.fields.cf_loyalty_code).toBeDefined();
      expect(other.registry.get('customer')!.fields.cf_tier).toBeUndefined();
      const raw = await other.db.kysely.selectFrom('customer').select('cf_loyalty_code' as never).where('id', '=', customerId).executeTakeFirst();
      expect(raw).toEqual({ cf_loyalty_code: 'GOLD-78' });
    } finally {
      await other.close();
    }
  });
});
