/**
 * CRM records through the HTTP API, on every test dialect: companies with
 * their address lines (replace and merge/delete_address_list semantics, one
 * transaction per request), soft delete, prospects' fillFrom from the chosen
 * contact, orders' defaults and run numbers, working records' run numbers and
 * dynamic defaults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

/** WRyymm / ORyymm of the current UTC month (numbering series use UTC). */
function monthPrefix(prefix: string, d = new Date()): string {
  return `${prefix}${String(d.getUTCFullYear()).slice(2)}${String(d.getUTCMonth() + 1).padStart(2, '0')}-`;
}

describe.each(testDialects())('CRM records on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let adminId: number;
  let seq = 0;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = t.headers) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const companyBody = (extra: Row = {}): Row => {
    const n = ++seq;
    return { customer_name_th: `บริษัท ทดสอบ ${n} จำกัด`, customer_name_eng: `Test ${n} Co., Ltd.`, customer_title: 'company_limited', phone_number1: '02-123-4567', ...extra };
  };
  const address = (line: string, extra: Row = {}): Row => ({ address_line: line, district: 'บางรัก', province: 'กรุงเทพมหานคร', postal_code: '10500', ...extra });

  async function createCompany(extra: Row = {}): Promise<Row> {
    const res = await call('POST', '/api/company', companyBody(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }
  async function getCompany(id: number): Promise<Row> {
    const res = await call('GET', `/api/company/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }
  /** The company as the database holds it: header columns plus the lines, by id. */
  async function stored(id: number) {
    const header = await t.db.kysely.selectFrom('company').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const lines = await t.db.kysely.selectFrom('company_address').selectAll().where('company_id', '=', id).orderBy('id').execute();
    return { header, lines };
  }
  const lines = (company: Row) => (company.address_list as Row[]).map((l) => ({ id: l.id, address_line: l.address_line, line_no: l.line_no }));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const me = await call('GET', `/api/user_account?filter=${encodeURIComponent(JSON.stringify({ username: { _eq: 'admin' } }))}&fields=id`);
    adminId = me.json().data[0].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('companies with addresses', () => {
    it('creates a company with two addresses, defaults filled on header and lines', async () => {
      const co = await createCompany({ address_list: [address('1 ถนนสีลม', { is_default: true }), address('99 ถนนพระราม 4', { address_type: 'billing' })] });
      expect(co).toMatchObject({ type: 'customer', status: 'active', owner_by: adminId });
      expect(co.address_list).toHaveLength(2);
      expect(co.address_list[0]).toMatchObject({ address_line: '1 ถนนสีลม', address_type: 'office', country: 'Thailand', is_default: true, line_no: 1, company_id: co.id });
      expect(co.address_list[1]).toMatchObject({ address_line: '99 ถนนพระราม 4', address_type: 'billing', is_default: false, line_no: 2 });
      expect(lines(await getCompany(co.id))).toEqual(lines(co));
    });

    it('updates: edits one address and adds one (full list = replace semantics)', async () => {
      const co = await createCompany({ address_list: [address('A1'), address('A2')] });
      const [a1, a2] = co.address_list as Row[];
      const res = await call('PATCH', `/api/company/${co.id}`, {
        address_list: [{ ...a1Body(a1), address_line: 'A1 edited' }, a1Body(a2), address('A3')],
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = await getCompany(co.id);
      expect(lines(after)).toEqual([
        { id: a1!.id, address_line: 'A1 edited', line_no: 1 },
        { id: a2!.id, address_line: 'A2', line_no: 2 },
        { id: expect.any(Number), address_line: 'A3', line_no: 3 },
      ]);
    });

    it('replace semantics without a delete_ list: lines left out are deleted (PATCH and PUT)', async () => {
      const co = await createCompany({ address_list: [address('R1'), address('R2'), address('R3')] });
      const [r1, r2, r3] = co.address_list as Row[];
      let res = await call('PATCH', `/api/company/${co.id}`, { address_list: [a1Body(r3), a1Body(r1)] });
      expect(res.statusCode, res.body).toBe(200);
      let after = await getCompany(co.id);
      // the list as sent is the new order
      expect(lines(after)).toEqual([{ id: r3!.id, address_line: 'R3', line_no: 1 }, { id: r1!.id, address_line: 'R1', line_no: 2 }]);
      expect((await stored(co.id)).lines.map((l) => Number(l.id))).not.toContain(r2!.id);

      // PUT replaces the whole record; its address_list is the whole list too
      res = await call('PUT', `/api/company/${co.id}`, { ...companyBody(), customer_name_th: 'แทนที่ทั้งหมด', address_list: [a1Body(r1), address('R4')] });
      expect(res.statusCode, res.body).toBe(200);
      after = await getCompany(co.id);
      expect(after.customer_name_th).toBe('แทนที่ทั้งหมด');
      expect(lines(after)).toEqual([{ id: r1!.id, address_line: 'R1', line_no: 1 }, { id: expect.any(Number), address_line: 'R4', line_no: 2 }]);

      // an empty list removes every line; leaving the field out keeps them
      res = await call('PATCH', `/api/company/${co.id}`, { comment: 'lines untouched' });
      expect(res.statusCode, res.body).toBe(200);
      expect((await getCompany(co.id)).address_list).toHaveLength(2);
      res = await call('PATCH', `/api/company/${co.id}`, { address_list: [] });
      expect(res.statusCode, res.body).toBe(200);
      expect((await getCompany(co.id)).address_list).toEqual([]);
    });

    it('delete_address_list in the same request as a header change, an edit and a new line: merge semantics', async () => {
      const co = await createCompany({ address_list: [address('D1'), address('D2'), address('D3')] });
      const [d1, d2, d3] = co.address_list as Row[];
      const res = await call('PATCH', `/api/company/${co.id}`, {
        customer_name_eng: 'Renamed Co., Ltd.',
        address_list: [{ id: d3!.id, address_line: 'D3 edited', province: 'เชียงใหม่', postal_code: '50000' }, address('D4')],
        delete_address_list: [d2!.id],
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = await getCompany(co.id);
      expect(after.customer_name_eng).toBe('Renamed Co., Ltd.');
      // D1 was not mentioned and is kept, D2 is deleted, D3 edited in place, D4 goes after the kept ones
      expect(after.address_list.map((l: Row) => l.address_line)).toEqual(['D1', 'D3 edited', 'D4']);
      expect(after.address_list[0]).toMatchObject({ id: d1!.id, line_no: 1 });
      expect(after.address_list[1]).toMatchObject({ id: d3!.id, province: 'เชียงใหม่', postal_code: '50000', line_no: 3 });
      expect(after.address_list[2].line_no).toBeGreaterThan(3);
      expect((await stored(co.id)).lines.map((l) => Number(l.id))).not.toContain(d2!.id);

      // delete_address_list alone deletes only what it names
      const only = await call('PATCH', `/api/company/${co.id}`, { delete_address_list: [d1!.id] });
      expect(only.statusCode, only.body).toBe(200);
      expect((await getCompany(co.id)).address_list.map((l: Row) => l.address_line)).toEqual(['D3 edited', 'D4']);
    });

    describe('one transaction: an invalid change leaves everything as it was', () => {
      let co: Row;
      let other: Row;
      let before: Awaited<ReturnType<typeof stored>>;

      beforeAll(async () => {
        co = await createCompany({ address_list: [address('T1'), address('T2')] });
        other = await createCompany({ address_list: [address('Other 1')] });
        before = await stored(co.id);
      });

      const attempt = async (body: Row, status: number, code: string) => {
        const res = await call('PATCH', `/api/company/${co.id}`, body);
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json().error.code).toBe(code);
        expect(await stored(co.id)).toEqual(before);
        expect(lines(await getCompany(other.id))).toEqual(lines(other));
      };
      const changes = () => ({
        customer_name_eng: 'Must not be stored',
        address_list: [{ id: co.address_list[0].id, address_line: 'T1 must not change' }, address('T3 must not exist')],
      });

      it('a bad value in a new line (validation, before writing)', async () => {
        await attempt({ ...changes(), address_list: [...changes().address_list, address('bad', { postal_code: '12' })], delete_address_list: [co.address_list[1].id] }, 400, 'VALIDATION_FAILED');
      });

      it('delete_address_list naming a line of another company (checked after lines were written)', async () => {
        await attempt({ ...changes(), delete_address_list: [co.address_list[1].id, other.address_list[0].id] }, 400, 'VALIDATION_FAILED');
      });

      it('delete_address_list naming a line that does not exist', async () => {
        await attempt({ ...changes(), delete_address_list: [999_999] }, 400, 'VALIDATION_FAILED');
      });

      it('editing a line of another company by its id', async () => {
        await attempt({ ...changes(), address_list: [...changes().address_list, { id: other.address_list[0].id, address_line: 'stolen' }] }, 400, 'VALIDATION_FAILED');
      });

      it('the same line id twice', async () => {
        const id = co.address_list[0].id;
        await attempt({ customer_name_eng: 'Must not be stored', address_list: [{ id, address_line: 'x' }, { id, address_line: 'y' }] }, 400, 'VALIDATION_FAILED');
      });

      it('a header link to a record that does not exist', async () => {
        await attempt({ ...changes(), parent_company_id: 999_999, delete_address_list: [co.address_list[1].id] }, 400, 'VALIDATION_FAILED');
      });

      it('an unknown field next to valid changes', async () => {
        await attempt({ ...changes(), delete_address_list: [co.address_list[1].id], no_such_field: 1 }, 400, 'UNKNOWN_FIELD');
      });
    });

    it('address lines are written through the company only', async () => {
      const res = await call('POST', '/api/company_address', address('direct', { company_id: (await createCompany()).id }));
      expect(res.statusCode, res.body).toBe(405);
    });

    it('soft delete (is_delete) hides the company from reads, lists and new links, and keeps the row', async () => {
      const co = await createCompany({ customer_name_th: 'บริษัท จะถูกลบ จำกัด', address_list: [address('gone')] });
      const res = await call('DELETE', `/api/company/${co.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect((await call('GET', `/api/company/${co.id}`)).statusCode).toBe(404);
      expect((await call('PATCH', `/api/company/${co.id}`, { comment: 'x' })).statusCode).toBe(404);
      expect((await call('DELETE', `/api/company/${co.id}`)).statusCode).toBe(404);
      const list = await call('GET', `/api/company?limit=500&search=${encodeURIComponent('จะถูกลบ')}`);
      expect(list.json().data).toEqual([]);
      const all = await call('GET', '/api/company?limit=500&fields=id');
      expect(all.json().data.map((r: Row) => r.id)).not.toContain(co.id);
      const row = await t.db.kysely.selectFrom('company').select(['id', 'is_delete']).where('id', '=', co.id).executeTakeFirstOrThrow();
      expect(Number(row.is_delete)).toBe(1);
      const contact = await call('POST', '/api/contact', { contact_name: 'x', customer_id: co.id });
      expect(contact.statusCode, contact.body).toBe(400);
      expect(contact.json().error.details.fields).toEqual([expect.objectContaining({ field: 'customer_id', code: 'link' })]);
    });
  });

  describe('contacts and prospects', () => {
    let companyId: number;
    let somchai: Row;
    let suda: Row;

    beforeAll(async () => {
      companyId = (await createCompany()).id;
      const make = async (body: Row) => {
        const res = await call('POST', '/api/contact', { customer_id: companyId, ...body });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as Row;
      };
      somchai = await make({ contact_name_title: 'mr', contact_name: 'สมชาย ใจดี', mobile_number: '081-111-1111', email: 'somchai@example.co.th', position: 'ผู้จัดการ' });
      suda = await make({ contact_name_title: 'ms', contact_name: 'สุดา รักงาน', mobile_number: '089-222-2222', email: 'suda@example.co.th' });
    });

    it('a contact has its defaults and belongs to its company', async () => {
      expect(somchai).toMatchObject({ status: 'active', customer_id: companyId });
      const res = await call('GET', `/api/contact?filter=${encodeURIComponent(JSON.stringify({ customer_id: { _eq: companyId } }))}&sort=contact_name`);
      expect(res.json().data.map((r: Row) => r.contact_name)).toEqual(['สมชาย ใจดี', 'สุดา รักงาน']);
      const bad = await call('POST', '/api/contact', { contact_name: 'no company' });
      expect(bad.statusCode).toBe(400);
    });

    it('contact_mobile and contact_email are filled from the chosen contact when not sent', async () => {
      const res = await call('POST', '/api/prospect', { customer_id: companyId, contact_id: somchai.id, product_detail: 'ฟิล์มยืด 10 ม้วน' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ contact_mobile: '081-111-1111', contact_email: 'somchai@example.co.th', owner_id: adminId });
    });

    it('changing contact_id refills them; clearing it clears them', async () => {
      const id = (await call('POST', '/api/prospect', { customer_id: companyId, contact_id: somchai.id, product_detail: 'เทปกาว' })).json().data.id;
      let res = await call('PATCH', `/api/prospect/${id}`, { contact_id: suda.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ contact_id: suda.id, contact_mobile: '089-222-2222', contact_email: 'suda@example.co.th' });
      // a PATCH that does not touch contact_id keeps the copied values even when the contact changes later
      await call('PATCH', `/api/contact/${suda.id}`, { mobile_number: '089-999-9999' });
      res = await call('PATCH', `/api/prospect/${id}`, { prospect_price: 1500 });
      expect(res.json().data).toMatchObject({ contact_mobile: '089-222-2222', prospect_price: 1500 });
      res = await call('PATCH', `/api/prospect/${id}`, { contact_id: null });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ contact_id: null, contact_mobile: null, contact_email: null });
      await call('PATCH', `/api/contact/${suda.id}`, { mobile_number: '089-222-2222' });
    });

    it('values sent explicitly are kept, on create and on update', async () => {
      let res = await call('POST', '/api/prospect', { customer_id: companyId, contact_id: somchai.id, contact_mobile: '02-000-0000', product_detail: 'กล่อง' });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().data.id;
      // only the field that was not sent is filled
      expect(res.json().data).toMatchObject({ contact_mobile: '02-000-0000', contact_email: 'somchai@example.co.th' });
      res = await call('PATCH', `/api/prospect/${id}`, { contact_id: suda.id, contact_mobile: null, contact_email: 'buyer@example.com' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ contact_id: suda.id, contact_mobile: null, contact_email: 'buyer@example.com' });
    });

    it('a prospect pointing at a contact that does not exist is refused', async () => {
      const res = await call('POST', '/api/prospect', { customer_id: companyId, contact_id: 999_999, product_detail: 'x' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field: 'contact_id', code: 'link' })]);
    });
  });

  describe('orders', () => {
    it('status defaults to Active and the run number is assigned (ORyymm-0001 …)', async () => {
      const companyId = (await createCompany()).id;
      const first = await call('POST', '/api/order', { customer_id: companyId, total: 12_500.5 });
      expect(first.statusCode, first.body).toBe(201);
      const second = await call('POST', '/api/order', { customer_id: companyId, order_type: 'renewal' });
      expect(second.statusCode, second.body).toBe(201);
      const prefix = monthPrefix('OR');
      expect(first.json().data).toMatchObject({ status: 'Active', order_type: 'new', runnumber: `${prefix}0001`, total: 12_500.5 });
      expect(second.json().data).toMatchObject({ status: 'Active', runnumber: `${prefix}0002` });
      // a number given by the client is kept and does not use up the series
      const given = await call('POST', '/api/order', { customer_id: companyId, runnumber: 'OR-MANUAL-1', status: 'Expired' });
      expect(given.statusCode, given.body).toBe(201);
      expect(given.json().data).toMatchObject({ runnumber: 'OR-MANUAL-1', status: 'Expired' });
      const third = await call('POST', '/api/order', { customer_id: companyId });
      expect(third.json().data.runnumber).toBe(`${prefix}0003`);
      // a refused creation gives its number back
      const refusedRes = await call('POST', '/api/order', { customer_id: companyId, contact_id: 999_999 });
      expect(refusedRes.statusCode).toBe(400);
      const fourth = await call('POST', '/api/order', { customer_id: companyId });
      expect(fourth.json().data.runnumber).toBe(`${prefix}0004`);
      const dup = await call('POST', '/api/order', { customer_id: companyId, runnumber: `${prefix}0001` });
      expect(dup.statusCode, dup.body).toBe(409);
      // a PUT that leaves the number out keeps it
      const put = await call('PUT', `/api/order/${first.json().data.id}`, { customer_id: companyId, status: 'Cancelled' });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().data).toMatchObject({ runnumber: `${prefix}0001`, status: 'Cancelled' });
    });
  });

  describe('working records', () => {
    it('run_number WRyymm-0001…, note_time defaults to now, owner_id to the current user', async () => {
      const sales = await c.staff('sales', { working_record: { view: true, edit: true }, company: { view: true } });
      const t0 = Date.now();
      const a = await call('POST', '/api/working_record', { subject: 'โทรหาลูกค้า' });
      const b = await call('POST', '/api/working_record', { subject: 'เข้าพบลูกค้า', status: 'in_progress' }, sales.headers);
      const t1 = Date.now();
      expect(a.statusCode, a.body).toBe(201);
      expect(b.statusCode, b.body).toBe(201);
      const prefix = monthPrefix('WR');
      expect(a.json().data).toMatchObject({ run_number: `${prefix}0001`, owner_id: adminId, status: 'open' });
      expect(b.json().data).toMatchObject({ run_number: `${prefix}0002`, owner_id: sales.id, status: 'in_progress' });
      for (const r of [a, b]) {
        const noteTime = Date.parse(r.json().data.note_time);
        expect(noteTime).toBeGreaterThanOrEqual(t0 - 1000);
        expect(noteTime).toBeLessThanOrEqual(t1 + 1000);
      }
      // explicit values are kept
      const c2 = await call('POST', '/api/working_record', { subject: 'ย้อนหลัง', note_time: '2024-01-02T03:04:05.000Z', owner_id: sales.id });
      expect(c2.json().data).toMatchObject({ note_time: '2024-01-02T03:04:05.000Z', owner_id: sales.id, run_number: `${prefix}0003` });
    });

    it('updating a working record keeps its run number (PATCH and PUT)', async () => {
      const created = (await call('POST', '/api/working_record', { subject: 'ติดตามใบเสนอราคา' })).json().data as Row;
      let res = await call('PATCH', `/api/working_record/${created.id}`, { status: 'done' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.run_number).toBe(created.run_number);
      // PUT without run_number: the number is a server-assigned identity and must survive a replace
      res = await call('PUT', `/api/working_record/${created.id}`, { subject: 'ติดตามใบเสนอราคา (แก้ไข)', note_time: created.note_time, status: 'done' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.run_number).toBe(created.run_number);
    });
  });
});

/** A line as read back, reduced to what a client sends when it keeps the line. */
function a1Body(line: Row | undefined): Row {
  const { id, address_type, address_line, sub_district, district, province, postal_code, country, is_default } = line!;
  return { id, address_type, address_line, sub_district, district, province, postal_code, country, is_default };
}
