/**
 * GET /api/{entity}/export?format=xlsx beside the CSV: the same rows, filter
 * and flag, labels in the asked language, typed cells; and the export
 * hardening of issue 8 §8 in both formats (nosniff, bidi controls, formulas).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, csvRows, expectError, q } from '../support/security-fixtures.ts';

async function sheetOf(res: LightMyRequestResponse): Promise<ExcelJS.Worksheet> {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

const values = (ws: ExcelJS.Worksheet, row: number) => (ws.getRow(row).values as unknown[]).slice(1);
const BIDI = '\u202E\u2066\u200F\u061C';

describe.each(testDialects())('list export on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  const notes: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    for (const [total, note] of [[12500, 'ปกติ'], [99.5, `=HYPERLINK("http://evil")`], [300, `ยอด${BIDI}คืน`]] as const) {
      // a billing note's total is its lines' sum
      const body = c.billingNoteBody(customer, company, { total_amount: total, note, items: [{ description: 'ค่าสินค้า', amount: total }] });
      notes.push(body.bill_no as string);
      await c.make('billing_note', body);
    }
  });
  afterAll(async () => t?.close());

  const url = (extra: string) => `/api/billing_note/export?fields=bill_no,bill_date,total_amount,customer_id.name_th,note&sort=bill_no&${extra}`;

  it('answers an .xlsx with the rows, Thai labels, numbers as numbers and dates as dates', async () => {
    const ws = await sheetOf(await c.call('GET', url('format=xlsx'), c.admin));
    expect(values(ws, 1)).toEqual(['เลขที่ใบวางบิล', 'วันที่', 'ยอดรวม', 'ลูกค้า / ชื่อลูกค้า (ไทย)', 'หมายเหตุ']);
    expect(ws.actualRowCount).toBe(4);
    const first = values(ws, 2);
    expect(first[0]).toBe(notes[0]);
    expect(first[1]).toBeInstanceOf(Date);
    expect((first[1] as Date).toISOString().slice(0, 10)).toBe('2026-11-03');
    expect(first[2]).toBe(12500);
    expect(values(ws, 3)[2]).toBe(99.5);
    expect(String(first[3])).toMatch(/^บริษัท ลูกค้า C\d+ จำกัด$/);
  });

  it('uses English labels with lang=en, and follows the filter like the CSV', async () => {
    const filter = q({ total_amount: { _gt: 200 } });
    const ws = await sheetOf(await c.call('GET', url(`format=xlsx&lang=en&filter=${filter}`), c.admin));
    expect(values(ws, 1)[0]).toBe('Billing note no.');
    expect(values(ws, 1)[2]).toBe('Total amount');
    const csv = csvRows(await c.call('GET', url(`filter=${filter}`), c.admin));
    expect(ws.actualRowCount - 1).toBe(csv.length);
    expect(csv.map((r) => r.bill_no).sort()).toEqual([notes[0], notes[2]].sort());
  });

  it('refuses an unknown format or language', async () => {
    expectError(await c.call('GET', url('format=pdf'), c.admin), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', url('format=xlsx&lang=de'), c.admin), 400, 'INVALID_QUERY');
  });

  it('needs the export flag for xlsx too', async () => {
    const viewer = await c.staff('xlsx_viewer', { billing_note: { view: true, print: true } });
    expectError(await c.call('GET', url('format=xlsx'), viewer.headers), 403, 'FORBIDDEN');
  });

  it('sends X-Content-Type-Options: nosniff with CSV and XLSX', async () => {
    for (const f of ['csv', 'xlsx']) expect((await c.call('GET', url(`format=${f}`), c.admin)).headers['x-content-type-options']).toBe('nosniff');
  });

  it('replaces bidirectional controls by U+FFFD and quotes formulas, in CSV and XLSX', async () => {
    const csv = (await c.call('GET', url('format=csv'), c.admin)).body;
    expect(csv).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
    expect(csv).toContain('ยอด\uFFFD\uFFFD\uFFFD\uFFFDคืน');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const ws = await sheetOf(await c.call('GET', url('format=xlsx'), c.admin));
    const cells = [2, 3, 4].map((r) => String(values(ws, r)[4]));
    expect(cells).toContain('ยอด\uFFFD\uFFFD\uFFFD\uFFFDคืน');
    expect(cells).toContain(`'=HYPERLINK("http://evil")`);
    expect(cells.join('')).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
  });
});
