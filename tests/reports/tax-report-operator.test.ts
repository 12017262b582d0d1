/**
 * The Thai tax reports are filed per operator (one tax id): a `company` parameter keeps each report to
 * one company's documents, and the printed report is headed by that operator's name, tax id and head
 * office or branch (`operator` in the report file). With one company it is the operator without being
 * chosen; with several and none chosen, the header says the report covers them all.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { buildReportFixture, TAX_IDS, type ReportFixture } from './report-fixture.ts';
import * as X from './expected-figures.ts';
import { thaiTaxId } from '../support/sample-records.ts';

/** pdftotext's text is NFKC-normalised and without spaces: compare the expected text the same way (ำ decomposes). */
const n = (s: string) => s.normalize('NFKC').replace(/\s+/g, '');
const OTHER_TAX_ID = thaiTaxId(55580000);
const TAX_REPORTS = ['sales_tax_report', 'purchase_tax_report', 'wht_summary', 'wht_attachment', 'wht_received'];

describe.each(testDialects())('tax reports per operator on %s', (dialect) => {
  let t: TestApp;
  let f: ReportFixture;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    f = await buildReportFixture(t);
  }, 120_000);
  afterAll(async () => t?.close());

  const pdfText = async (query: string, headers = f.c.admin): Promise<string> => {
    const res = await f.c.call('GET', `/api/report/sales_tax_report/pdf?month=2026-11${query}`, headers);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'tax-operator-'));
    try {
      writeFileSync(join(dir, 'r.pdf'), res.rawPayload);
      return execFileSync('pdftotext', ['-layout', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' }).normalize('NFKC').replace(/\s+/g, '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const rowsOf = async (name: string, query: string) => {
    const res = await f.c.call('GET', `/api/report/${name}?${query}`, f.c.admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('each tax report takes an optional company; the catalogue lists it', async () => {
    const list = (await f.c.call('GET', '/api/report', f.c.admin)).json().data as { name: string; parameters: { name: string; entity?: string; required?: boolean }[] }[];
    for (const name of TAX_REPORTS) {
      const p = list.find((r) => r.name === name)?.parameters.find((x) => x.name === 'company');
      expect(p, name).toMatchObject({ entity: 'your_company' });
      expect(p?.required ?? false, name).toBe(false);
    }
  });

  it('one company: the printed sales tax report is headed by it as the operator, unchosen', async () => {
    const text = await pdfText('');
    expect(text).toContain(n('ชื่อผู้ประกอบการ:บริษัทรายงานจำกัด'));
    expect(text).toContain(n(`เลขประจำตัวผู้เสียภาษีอากร:${TAX_IDS.RC}`));
    expect(text).toContain(n('สถานประกอบการ:สำนักงานใหญ่'));
  });

  it('two companies: the company keeps each report to its own documents, and the header to its own name', async () => {
    const other = await f.c.make('your_company', { code: 'RB', name_th: 'บริษัท สาขาสอง จำกัด', tax_id: OTHER_TAX_ID, branch_code: '00003', branch_name: 'บางนา', is_vat_registered: true });
    const all = await rowsOf('sales_tax_report', 'month=2026-11&limit=1000');
    expect(all.meta.total_count).toBe(X.SALES_TAX_NOV.length);
    const own = await rowsOf('sales_tax_report', `month=2026-11&limit=1000&company=${f.id.RC}`);
    expect(own.data.rows.map((r: { doc_no: string }) => r.doc_no)).toEqual(all.data.rows.map((r: { doc_no: string }) => r.doc_no));
    expect(Number(own.data.totals.vat_amount)).toBe(X.SALES_TAX_NOV_TOTALS.vat_amount);
    for (const name of TAX_REPORTS) {
      const none = await rowsOf(name, `month=2026-11${name === 'wht_attachment' ? '&pnd_form=pnd53' : ''}&limit=1000&company=${other}`);
      expect(none.meta.total_count, name).toBe(0);
    }
    expect((await rowsOf('wht_summary', `month=2026-11&company=${f.id.RC}`)).meta.total_count).toBe(X.WHT_NOV.length);

    const unchosen = await pdfText('');
    expect(unchosen).toContain(n('ชื่อผู้ประกอบการ:ทุกบริษัท'));
    expect(unchosen).not.toContain(n('เลขประจำตัวผู้เสียภาษีอากร:'));
    const chosen = await pdfText(`&company=${other}`);
    expect(chosen).toContain(n('ชื่อผู้ประกอบการ:บริษัทสาขาสองจำกัด'));
    expect(chosen).toContain(n(`เลขประจำตัวผู้เสียภาษีอากร:${OTHER_TAX_ID}`));
    expect(chosen).toContain(n('สถานประกอบการ:สาขาที่00003บางนา'));
  });

  it('an unknown or malformed company is refused with 400, not a 500', async () => {
    const res = await f.c.call('GET', '/api/report/sales_tax_report?month=2026-11&company=abc', f.c.admin);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('INVALID_QUERY');
  });
});
