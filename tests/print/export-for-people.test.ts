/**
 * Issue 38 §5: an export ready to hand out. Status and enum cells carry their
 * labels, links are the code and name people see (never ids), dates are date
 * cells shown in the Buddhist era for Thai, and the file is named after the
 * screen and the day ("ใบวางบิล-2569-11-26.xlsx").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, thaiTaxId } from '../support/security-fixtures.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

async function sheetOf(res: LightMyRequestResponse): Promise<ExcelJS.Worksheet> {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}
const values = (ws: ExcelJS.Worksheet, row: number) => (ws.getRow(row).values as unknown[]).slice(1);
/** The file name a browser takes from Content-Disposition: the RFC 5987 form first. */
function fileNameOf(res: LightMyRequestResponse): string {
  const d = String(res.headers['content-disposition']);
  const star = /filename\*=UTF-8''([^;]+)/i.exec(d);
  expect(star, d).not.toBeNull();
  expect(d).toMatch(/^attachment; filename\*=UTF-8''[^; ]+; filename="[\x20-\x7e]+"$/);
  // what the web app's download() reads (http-client.ts) is the Thai name too
  const web = /filename\*=UTF-8''([^;]+)|filename="([^"]+)"/i.exec(d)!;
  expect(decodeURIComponent(web[1] ?? web[2]!)).toBe(decodeURIComponent(star![1]!));
  return decodeURIComponent(star![1]!);
}

/** LibreOffice's command, when installed (apt-get install libreoffice-calc-nogui): a real spreadsheet reads the file. */
const soffice = (() => { try { execFileSync('soffice', ['--version'], { stdio: 'ignore', timeout: 60_000 }); return 'soffice'; } catch { return null; } })();

/** The sheet as LibreOffice shows it (formatted values), converted to CSV headlessly. */
function asShownByLibreOffice(xlsx: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-lo-'));
  try {
    writeFileSync(join(dir, 'sheet.xlsx'), xlsx);
    // 44,34,76: comma, quote, UTF-8; the last token true: cells as shown (their number formats applied)
    execFileSync(soffice!, ['--headless', '--norestore', `-env:UserInstallation=file://${join(dir, 'profile')}`, '--convert-to',
      'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true', '--outdir', dir, join(dir, 'sheet.xlsx')], { stdio: 'ignore', timeout: 120_000 });
    return readFileSync(join(dir, 'sheet.csv'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDialects())('export for people on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let customer: { id: number; code: string };
  let bill: Record<string, any>;
  // what the billing note list asks for (list-request.ts): the id, the link and its shown name
  const fields = 'id,bill_no,bill_date,customer_id,customer_id.name_th,total_amount,status';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const company = await c.company();
    const code = c.next('C-EXP-');
    customer = { code, id: await c.make('customer', { code, customer_type: 'juristic', name_th: 'บริษัท สยามฟู้ดแพ็ค จำกัด', tax_id: thaiTaxId(745548888), branch_code: '00000' }) };
    const res = await c.call('POST', '/api/billing_note', c.admin, c.billingNoteBody(customer.id, company, { bill_date: '2026-11-03', total_amount: 21400, items: [{ description: 'ค่าสินค้า', amount: 21400 }] }));
    expect(res.statusCode, res.body).toBe(201);
    bill = res.json().data;
    expect((await c.call('POST', `/api/billing_note/${bill.id}/actions/issue`, c.admin)).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  const today = () => businessToday(businessClock.now(), businessClock.timeZone);
  const thaiDay = () => { const [y, m, d] = today().split('-'); return `${Number(y) + 543}-${m}-${d}`; };

  it('XLSX in Thai: status label, customer code and name without ids, Buddhist-era date cells, named ใบวางบิล-<day>', async () => {
    const res = await c.call('GET', `/api/billing_note/export?format=xlsx&lang=th&fields=${fields}`, c.admin);
    const ws = await sheetOf(res);
    const header = values(ws, 1);
    expect(header).toEqual(['เลขที่ใบวางบิล', 'วันที่', 'ลูกค้า / รหัสลูกค้า', 'ลูกค้า / ชื่อลูกค้า (ไทย)', 'ยอดรวม', 'สถานะ']);
    const row = values(ws, 2);
    expect(row[0]).toBe(bill.bill_no);
    expect(row[1]).toBeInstanceOf(Date);
    expect((row[1] as Date).toISOString().slice(0, 10)).toBe('2026-11-03');
    expect(ws.getRow(2).getCell(2).numFmt).toBe('[$-107041E]d/m/yyyy');
    expect(row.slice(2)).toEqual([customer.code, 'บริษัท สยามฟู้ดแพ็ค จำกัด', 21400, 'วางบิลแล้ว']);
    // no cell anywhere holds the customer's or the bill's id
    expect(row).not.toContain(customer.id);
    expect(row).not.toContain(bill.id);
    expect(fileNameOf(res)).toBe(`ใบวางบิล-${thaiDay()}.xlsx`);
  });

  // skipped where LibreOffice is not installed (it is not among the test preflight's packages)
  it.skipIf(!soffice)('XLSX opened in LibreOffice shows the bill date in the Buddhist era (its Thai-calendar number format applied)', async () => {
    const res = await c.call('GET', `/api/billing_note/export?format=xlsx&lang=th&fields=${fields}`, c.admin);
    expect(res.statusCode).toBe(200);
    const rows = asShownByLibreOffice(res.rawPayload).trim().split('\n').map((l) => l.split(','));
    const mine = rows.find((r) => r[0] === bill.bill_no);
    expect(mine, rows.join('\n')).toBeDefined();
    // [$-107041E]d/m/yyyy: the Thai calendar, so 3 Nov 2026 reads 3/11/2569
    expect(mine![1]).toBe('3/11/2569');
  }, 180_000);

  it('XLSX in English: English labels and a Western-calendar name; every column when none are asked, still no id', async () => {
    const res = await c.call('GET', '/api/billing_note/export?format=xlsx&lang=en', c.admin);
    const ws = await sheetOf(res);
    const header = values(ws, 1) as string[];
    expect(header).not.toContain('ID');
    expect(header).toContain('Status');
    const status = values(ws, 2)[header.indexOf('Status')];
    expect(status).toBe('Issued');
    expect(values(ws, 2)[header.indexOf('Customer / Customer code')]).toBe(customer.code);
    expect(ws.getRow(2).getCell(header.indexOf('Date') + 1).numFmt).toBe('d mmm yyyy');
    expect(fileNameOf(res)).toBe(`Billing notes-${today()}.xlsx`);
  });

  it('CSV for a Thai reader: labels, status label, code and name, Buddhist-era date text, no ids', async () => {
    const res = await c.call('GET', `/api/billing_note/export?format=csv&fields=${fields}`, { ...c.admin, 'accept-language': 'th' });
    expect(res.statusCode, res.body).toBe(200);
    const [head, line] = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(head).toBe('เลขที่ใบวางบิล,วันที่,ลูกค้า / รหัสลูกค้า,ลูกค้า / ชื่อลูกค้า (ไทย),ยอดรวม,สถานะ');
    expect(line).toBe(`${bill.bill_no},3 พ.ย. 2569,${customer.code},บริษัท สยามฟู้ดแพ็ค จำกัด,21400,วางบิลแล้ว`);
    expect(fileNameOf(res)).toBe(`ใบวางบิล-${thaiDay()}.csv`);
    // the screen names its language: an English screen in a Thai browser gets English
    const en = await c.call('GET', `/api/billing_note/export?format=csv&lang=en&fields=${fields}`, { ...c.admin, 'accept-language': 'th' });
    expect(en.body.replace(/^\uFEFF/, '').trim().split('\r\n')[1]).toBe(`${bill.bill_no},3 Nov 2026,${customer.code},บริษัท สยามฟู้ดแพ็ค จำกัด,21400,Issued`);
  });

  it('a caller who may not read customers gets no customer columns, never the id in their place', async () => {
    const clerk = await c.staff('exp_clerk', { billing_note: { view: true, export: true } });
    const ws = await sheetOf(await c.call('GET', `/api/billing_note/export?format=xlsx&lang=th&fields=id,bill_no,customer_id,status`, clerk.headers));
    expect(values(ws, 1)).toEqual(['เลขที่ใบวางบิล', 'สถานะ']);
    expect(values(ws, 2)).toEqual([bill.bill_no, 'วางบิลแล้ว']);
  });
});
