/**
 * Issue 12 at API level, on every test dialect: dependent link filters
 * (`linkFilter`: a prospect's contact must belong to its company) are enforced
 * by the server; errors read in Thai with Accept-Language: th; singleton
 * entities have their row after start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { ensureSingletonRows } from '../../server/crud/singleton-rows.ts';

type Row = Record<string, any>;

describe.each(testDialects())('issue 12 on %s', (dialect) => {
  let t: TestApp;
  let companyA: number;
  let companyB: number;
  let contactA: number;
  let contactB: number;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, extra: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...t.headers, ...extra }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const created = async (url: string, body: Row) => {
    const res = await call('POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Row;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const company = (n: string) => created('/api/company', { customer_name_th: `บริษัท ${n} จำกัด`, customer_name_eng: `${n} Co., Ltd.`, customer_title: 'company_limited' });
    companyA = (await company('เอ')).id;
    companyB = (await company('บี')).id;
    contactA = (await created('/api/contact', { customer_id: companyA, contact_name: 'สมชาย ใจดี' })).id;
    contactB = (await created('/api/contact', { customer_id: companyB, contact_name: 'สุดา รักงาน' })).id;
  });
  afterAll(async () => { await t?.close(); });

  describe('linkFilter', () => {
    it('accepts a contact of the chosen company, and any contact while no company is chosen', async () => {
      await created('/api/prospect', { customer_id: companyA, contact_id: contactA, product_detail: 'ฟิล์มยืด' });
      const prospect = t.registry.get('prospect')!;
      if (!prospect.fields.customer_id!.required) await created('/api/prospect', { contact_id: contactB, product_detail: 'ไม่มีบริษัท' });
    });

    it('refuses a contact of another company with VALIDATION_FAILED naming the field', async () => {
      const res = await call('POST', '/api/prospect', { customer_id: companyA, contact_id: contactB, product_detail: 'ผิดบริษัท' });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.details.fields).toEqual([expect.objectContaining({ field: 'contact_id', code: 'link_filter' })]);
      expect(await t.db.kysely.selectFrom('prospect').select('id').where('product_detail', '=', 'ผิดบริษัท').execute()).toEqual([]);
    });

    it('refuses moving a record to another company while its contact stays with the first', async () => {
      const p = await created('/api/order', { customer_id: companyA, contact_id: contactA });
      const res = await call('PATCH', `/api/order/${p.id}`, { customer_id: companyB });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.fields[0]).toMatchObject({ field: 'contact_id', code: 'link_filter' });
      const ok = await call('PATCH', `/api/order/${p.id}`, { customer_id: companyB, contact_id: contactB });
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('a working record\'s contact follows its company_id', async () => {
      const res = await call('POST', '/api/working_record', { company_id: companyB, contact_id: contactA, subject: 'โทรติดตาม' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.fields[0]).toMatchObject({ field: 'contact_id', code: 'link_filter' });
    });

    it('says it in Thai, naming the other field, with Accept-Language: th', async () => {
      const res = await call('POST', '/api/prospect', { customer_id: companyA, contact_id: contactB, product_detail: 'ผิดบริษัท' }, { 'accept-language': 'th-TH,th;q=0.9' });
      const f = (res.json().error.details.fields as Row[]).find((x) => x.field === 'contact_id');
      expect(f?.message).toBe('ข้อมูลที่เลือกไม่ตรงกับบริษัทที่เลือกไว้'.replace('บริษัท', t.registry.get('prospect')!.fields.customer_id!.label.th));
      expect(res.json().error.message).toMatch(/^ข้อมูลบางช่องไม่ถูกต้อง/);
    });
  });

  describe('errors in the reader\'s language', () => {
    it('a duplicate code names the entity and the field in Thai', async () => {
      await created('/api/causes_of_waste', { code: 'W-TH', name_th: 'แตกหัก' });
      const res = await call('POST', '/api/causes_of_waste', { code: 'W-TH', name_th: 'ซ้ำ' }, { 'accept-language': 'th' });
      expect(res.statusCode).toBe(409);
      const e = t.registry.get('causes_of_waste')!;
      expect(res.json().error.message).toBe(`มี${e.label.th}อื่นใช้${e.fields.code!.label.th}นี้แล้ว`);
      expect(res.json().error.params.entity).toEqual(e.label);
      const en = await call('POST', '/api/causes_of_waste', { code: 'W-TH', name_th: 'ซ้ำ' });
      expect(en.json().error.message).toBe(`Another ${e.label.en} already has this code`);
    });

    it('a wrong password and a missing record read in Thai', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'accept-language': 'th' }, payload: { username: 'admin', password: 'wrong-password' } });
      expect(res.json().error.message).toBe('ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง');
      const missing = await call('GET', '/api/billing_note/999999', undefined, { 'accept-language': 'th' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe(`ไม่พบ${t.registry.get('billing_note')!.label.th} 999999 หรือคุณไม่มีสิทธิ์ดู`);
    });

    it('an empty required field is "required" in Thai, not a type error', async () => {
      const res = await call('POST', '/api/prospect', { customer_id: null, contact_id: null }, { 'accept-language': 'th' });
      const fields = res.json().error.details.fields as Row[];
      if (t.registry.get('prospect')!.fields.customer_id!.required) {
        expect(fields.find((f) => f.field === 'customer_id')).toMatchObject({ code: 'required', message: 'กรุณากรอกข้อมูลช่องนี้' });
      }
      expect(fields.every((f) => /[\u0E00-\u0E7F]/.test(f.message))).toBe(true);
    });
  });

  it('a CSV export in Thai uses Thai labels and Buddhist-era dates; without Accept-Language it stays ISO', async () => {
    const p = await created('/api/prospect', { customer_id: companyA, product_detail: 'ส่งออก', expected_close_date: '2026-11-18' });
    const q = `/api/prospect/export?fields=id,expected_close_date&filter=${encodeURIComponent(JSON.stringify({ id: { _eq: p.id } }))}`;
    const th = await call('GET', q, undefined, { 'accept-language': 'th' });
    expect(th.statusCode, th.body).toBe(200);
    expect(th.body).toContain(t.registry.get('prospect')!.fields.expected_close_date!.label.th);
    expect(th.body).toContain('18 พ.ย. 2569');
    const plain = await call('GET', q);
    expect(plain.body).toContain('expected_close_date');
    expect(plain.body).toContain('2026-11-18');
  });

  it('every singleton entity has its row after start', async () => {
    await ensureSingletonRows(t.service, t.registry);
    await ensureSingletonRows(t.service, t.registry); // a second start adds nothing
    for (const e of t.registry.all().filter((x) => x.kind === 'singleton')) {
      const res = await call('GET', `/api/${e.name}?fields=id`);
      expect(res.json().data, e.name).toHaveLength(1);
    }
  });
});
