/**
 * Issue 50, the 50 ทวิ made from a payment voucher (ใบสำคัญจ่าย): the certificate holds its voucher against cancel
 * (`onCancel: "restrict"` on withholding_tax.payment_voucher_id, 409 HAS_DEPENDENTS naming it), a voucher has one
 * live certificate even when two requests cross (a unique index over the live certificates, 409 CONFLICT for the
 * loser), and the certificate takes its rate and income type from the voucher.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('the 50 ทวิ of a payment voucher on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let supplier: number;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    supplier = await c.supplier();
  });
  afterAll(async () => t?.close());

  const th = () => ({ ...c.admin, 'accept-language': 'th' });
  const act = (entity: string, id: number, action: string) => c.ok(c.action(entity, id, action));

  /** A posted voucher paying an approved invoice of 1,000.00 + VAT at `rate` %, that much withheld. */
  const postedVoucher = async (rate = 3, values: Row = {}): Promise<Row> => {
    n += 1;
    const pi = await c.ok(c.call('POST', '/api/purchase_invoice', c.admin, {
      supplier_id: supplier, your_company_id: company, vat_type: 'exclude', wht_rate: rate,
      supplier_invoice_no: `SUP-WC-${dialect}-${n}`, supplier_invoice_date: '2026-11-20',
      items: [{ description: 'ค่าบริการ', qty: 1, price: 1000 }],
    }), 201);
    await act('purchase_invoice', pi.id, 'approve');
    const v = await c.ok(c.call('POST', '/api/payment_voucher/from/purchase_invoice', c.admin, {
      ids: [pi.id], values: { payment_method: 'cash', wht_amount: rate * 10, ...values },
    }), 201);
    return act('payment_voucher', v.id, 'post');
  };
  const certificate = (voucher: number, extra: Row = {}) => c.call('POST', '/api/withholding_tax', th(), {
    your_company_id: company, payment_voucher_id: voucher, payee_type: 'supplier', income_type: '40_8', pnd_form: 'pnd53', wht_rate: '3', ...extra,
  });

  it('a voucher with a live certificate, draft or issued, cannot be cancelled: 409 HAS_DEPENDENTS naming it, in Thai', async () => {
    const v = await postedVoucher();
    const w = await c.ok(certificate(v.id), 201);
    const asDraft = await c.call('POST', `/api/payment_voucher/${v.id}/actions/cancel`, th());
    expectError(asDraft, 409, 'HAS_DEPENDENTS');
    expect(asDraft.json().error.details.dependents).toEqual([{ entity: 'withholding_tax', id: w.id, number: `#${w.id}` }]);

    const issued = await act('withholding_tax', w.id, 'issue');
    const refused = await c.call('POST', `/api/payment_voucher/${v.id}/actions/cancel`, th());
    expectError(refused, 409, 'HAS_DEPENDENTS');
    expect(refused.json().error.details.dependents).toEqual([{ entity: 'withholding_tax', id: w.id, number: issued.doc_no }]);
    expect(refused.json().error.message).toContain(`หนังสือรับรองการหักภาษี ณ ที่จ่าย ${String(issued.doc_no)}`);
    expect(refused.json().error.message).toContain(`ยกเลิกใบสำคัญจ่าย ${String(v.doc_no)} ไม่ได้`);
    // nothing moved: the voucher is still paid, its entry not reversed
    expect((await c.ok(c.call('GET', `/api/payment_voucher/${v.id}`, c.admin))).status).toBe('posted');

    // a cancelled certificate holds nothing: the voucher may then be cancelled, and no certificate made from it
    await act('withholding_tax', w.id, 'cancel');
    expect((await act('payment_voucher', v.id, 'cancel')).status).toBe('cancelled');
    expectError(await certificate(v.id), 400, 'VALIDATION_FAILED');
  });

  it('two certificates of one voucher asked at once: one is made, the other answers 409 CONFLICT, never 500', async () => {
    for (let round = 0; round < 3; round += 1) {
      const v = await postedVoucher();
      const answers = await Promise.all([certificate(v.id), certificate(v.id)]);
      expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join('\n')).toEqual([201, 409]);
      const loser = answers.find((r) => r.statusCode === 409)!;
      expect(loser.json().error.code).toBe('CONFLICT');
      expect(loser.json().error.details.fields.map((f: Row) => f.field)).toEqual(['payment_voucher_id']);
      const live = await c.ok(c.call('GET', `/api/withholding_tax?filter=${encodeURIComponent(JSON.stringify({ payment_voucher_id: { _eq: v.id } }))}`, c.admin)) as unknown as Row[];
      expect(live).toHaveLength(1);
    }
  });

  it('the database itself holds one live certificate per voucher; cancelled and archived ones do not count', async () => {
    const v = await postedVoucher();
    const w = await c.ok(certificate(v.id), 201);
    const stored = await t.db.kysely.selectFrom('withholding_tax').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow();
    const { id: _id, doc_no: _no, ...copy } = stored;
    // written around the API (no check of the server's runs): the unique index refuses it
    await expect(t.db.kysely.insertInto('withholding_tax').values(copy).execute()).rejects.toThrow();
    // beside a cancelled or an archived one, a live copy is allowed
    await t.db.kysely.insertInto('withholding_tax').values({ ...copy, status: 'cancelled' }).execute();
    await t.db.kysely.insertInto('withholding_tax').values({ ...copy, is_deleted: 1 }).execute();
    await act('withholding_tax', w.id, 'cancel');
    await t.db.kysely.insertInto('withholding_tax').values(copy).execute();
    // an existing certificate moved onto a voucher that has one answers 409 too (the index, on an update)
    const other = await postedVoucher();
    const draft = await c.ok(certificate(other.id), 201);
    expectError(await c.call('PATCH', `/api/withholding_tax/${draft.id}`, c.admin, { payment_voucher_id: v.id }), 409, 'CONFLICT');
  });

  it('takes its rate (the invoices\' rate) and income type from the voucher, in the form\'s fills as on create', async () => {
    const v = await postedVoucher(1, { wht_income_type: '40_8' });
    const w = await c.ok(c.call('POST', '/api/withholding_tax', c.admin, { your_company_id: company, payment_voucher_id: v.id, payee_type: 'supplier', pnd_form: 'pnd53' }), 201);
    expect(w).toMatchObject({ wht_rate: '1', income_type: '40_8', amount_paid: 1000, tax_amount: 10 });
    const fills = await c.ok(c.call('POST', '/api/withholding_tax/fills', c.admin, { record: { payment_voucher_id: v.id, wht_rate: '3' }, changed: 'payment_voucher_id' }));
    expect(fills).toMatchObject({ wht_rate: '1', income_type: '40_8', amount_paid: 1000 });
    // what the request sends wins over the fill
    await act('withholding_tax', w.id, 'cancel');
    const typed = await c.ok(certificate(v.id, { wht_rate: '1', income_type: '40_2' }), 201);
    expect(typed).toMatchObject({ wht_rate: '1', income_type: '40_2' });

    // the income type may be set on a posted voucher (before its certificate is made); its entry does not move
    const plain = await postedVoucher(5);
    expect((await c.ok(c.call('PATCH', `/api/payment_voucher/${plain.id}`, c.admin, { wht_income_type: '40_5' }))).wht_income_type).toBe('40_5');
    const rent = await c.ok(c.call('POST', '/api/withholding_tax', c.admin, { your_company_id: company, payment_voucher_id: plain.id, payee_type: 'supplier', pnd_form: 'pnd53' }), 201);
    expect(rent).toMatchObject({ wht_rate: '5', income_type: '40_5', tax_amount: 50 });
  });

  it('a voucher whose invoices carry no rate fills no rate (the default stays) and no income type (required: 400)', async () => {
    const v = await postedVoucher(0, { wht_amount: 30 });
    expect(v.sources_wht_rate).toBe(0);
    const fills = await c.ok(c.call('POST', '/api/withholding_tax/fills', c.admin, { record: { payment_voucher_id: v.id }, changed: 'payment_voucher_id' }));
    expect(fills.wht_rate).toBeUndefined();
    expect(fills.income_type).toBeUndefined();
    const missing = await c.call('POST', '/api/withholding_tax', c.admin, { your_company_id: company, payment_voucher_id: v.id, payee_type: 'supplier', pnd_form: 'pnd53' });
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect(missing.json().error.details.fields.map((f: Row) => f.field)).toContain('income_type');
    const w = await c.ok(c.call('POST', '/api/withholding_tax', c.admin, { your_company_id: company, payment_voucher_id: v.id, payee_type: 'supplier', pnd_form: 'pnd53', income_type: '40_8' }), 201);
    expect(w).toMatchObject({ wht_rate: '3', tax_amount: 30 });
  });

  it.runIf(dialect === 'postgres')('a certificate written while the voucher\'s cancel is uncommitted waits for it and is refused', async () => {
    const v = await postedVoucher();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let updated!: () => void;
    const inside = new Promise<void>((r) => { updated = r; });
    // the cancel's status update, not committed yet: the certificate's own checks read the voucher as still posted
    const cancel = t.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('payment_voucher').set({ status: 'cancelled' }).where('id', '=', v.id).execute();
      updated();
      await held;
    });
    await inside;
    const made = certificate(v.id);
    // the certificate's write is blocked on the voucher's row (FOR SHARE) before it is let go
    await expect.poll(async () => Number((await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db.kysely)).rows[0]!.n), { timeout: 20_000 }).toBeGreaterThan(0);
    release();
    await cancel;
    const res = await made;
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.json().error.details.fields.map((f: Row) => f.field)).toEqual(['payment_voucher_id']);
    expect(await c.ok(c.call('GET', `/api/withholding_tax?filter=${encodeURIComponent(JSON.stringify({ payment_voucher_id: { _eq: v.id } }))}`, c.admin))).toEqual([]);
  });

  it('an archived draft certificate holds nothing', async () => {
    const v = await postedVoucher();
    const w = await c.ok(certificate(v.id), 201);
    await c.ok(c.call('DELETE', `/api/withholding_tax/${w.id}`, c.admin), 200);
    expect((await act('payment_voucher', v.id, 'cancel')).status).toBe('cancelled');
  });
});
