/**
 * Adding an entity is adding a file: a new schema file in the folder gives a
 * table, working CRUD endpoints and an OpenAPI entry, with no code change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';

const warrantyType = {
  name: 'warranty_type',
  label: { th: 'ประเภทการรับประกัน', en: 'Warranty type' },
  labelPlural: { th: 'ประเภทการรับประกัน', en: 'Warranty types' },
  kind: 'master',
  titleField: 'name_th',
  searchFields: ['code', 'name_th'],
  softDelete: true,
  fields: {
    code: { type: 'string', label: { th: 'รหัส', en: 'Code' }, required: true, unique: true, maxLength: 20 },
    name_th: { type: 'string', label: { th: 'ชื่อ', en: 'Name' }, required: true, maxLength: 200 },
    months: { type: 'integer', label: { th: 'จำนวนเดือน', en: 'Months' }, min: 0, max: 120, default: 12 },
    fee: { type: 'money', label: { th: 'ค่าธรรมเนียม', en: 'Fee' }, min: 0 },
  },
};

describe.each(testDialects())('a new schema file on %s', (dialect) => {
  const schemas = tempSchemasDir([warrantyType], true);
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(dialect, schemas.dir); });
  afterAll(async () => {
    await t?.close();
    schemas.remove();
  });

  it('is not in the real schemas folder (so this test proves the file alone is enough)', async () => {
    const { SchemaRegistry } = await import('../../engine/schema/schema-registry.ts');
    const { readSchemaDir } = await import('../../server/schema-files.ts');
    const { SCHEMAS_DIR } = await import('../support/test-app.ts');
    expect(new SchemaRegistry(readSchemaDir(SCHEMAS_DIR)).get('warranty_type')).toBeUndefined();
  });

  it('gets working endpoints: create, read, list', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/warranty_type', headers: t.headers, payload: { code: 'W12', name_th: 'รับประกัน 1 ปี', fee: 150.25 } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ code: 'W12', name_th: 'รับประกัน 1 ปี', months: 12, fee: 150.25 });
    const id = created.json().data.id;
    const read = await t.app.inject({ method: 'GET', url: `/api/warranty_type/${id}`, headers: t.headers });
    expect(read.json().data).toMatchObject({ id, code: 'W12' });
    const list = await t.app.inject({ method: 'GET', url: '/api/warranty_type?search=1%20ปี&meta=total_count', headers: t.headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total_count).toBe(1);
    expect(list.json().data.map((r: { id: number }) => r.id)).toEqual([id]);
    const bad = await t.app.inject({ method: 'POST', url: '/api/warranty_type', headers: t.headers, payload: { code: 'W13', name_th: 'x', months: 500 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields).toEqual([{ field: 'months', code: 'maximum', message: 'must be at most 120', params: { limit: 120 } }]);
  });

  it('is listed in the OpenAPI document and the entity metadata', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: t.headers });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(Object.keys(spec.paths['/api/warranty_type']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(spec.paths['/api/warranty_type/{id}']).sort()).toEqual(['delete', 'get', 'patch', 'put']);
    expect(spec.components.schemas.warranty_type_create.required).toEqual(['code', 'name_th']);
    const meta = await t.app.inject({ method: 'GET', url: '/api/meta/entities', headers: t.headers });
    expect(meta.json().data.map((e: { name: string }) => e.name)).toContain('warranty_type');
  });
});
