/**
 * The 50 ทวิ printed from its form in the browser (issue 34 §1, "done when"):
 * the print menu's Thai PDF is taken as the browser receives it, its first
 * page (copy 1) is rendered with pdftoppm and compared, pixel by pixel with a
 * tolerance, with the reviewed reference rendering in tests/e2e/reference.
 * UPDATE_REFERENCE=1 writes a new reference instead: look at it before committing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import jsQRModule from 'jsqr';
import { parse } from 'promptparse';
import { ARTIFACTS, browserSession, closeSession, DEMO_PASSWORD, watchErrors, type ApiCall, type BrowserSession, type E2eServer } from './e2e-support.ts';

// jsqr is CommonJS with an ES default export (see tests/print/promptpay.test.ts)
const jsQR = ((m: unknown) => (m as { default?: unknown }).default ?? m)(jsQRModule) as unknown as typeof jsQRModule.default;
const REFERENCE = join(import.meta.dirname, 'reference', 'withholding-certificate-copy1.png');

/** Page 1 of a PDF as a PNG at 60 dpi. */
function firstPage(pdf: Buffer): PNG {
  const dir = mkdtempSync(join(tmpdir(), 'bo-wht-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '60', '-png', '-f', '1', '-l', '1', '-singlefile', join(dir, 'doc.pdf'), join(dir, 'page')]);
    return PNG.sync.read(readFileSync(join(dir, 'page.png')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The share of pixels whose colour differs by more than `threshold` (0-255, any channel). */
function differingShare(a: PNG, b: PNG, threshold = 64): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differ = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.max(Math.abs(a.data[i]! - b.data[i]!), Math.abs(a.data[i + 1]! - b.data[i + 1]!), Math.abs(a.data[i + 2]! - b.data[i + 2]!)) > threshold) differ++;
  }
  return differ / (a.width * a.height);
}

describe('50 ทวิ printed from the browser; the PromptPay QR on the portal\'s bill page', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let api: ApiCall;

  beforeAll(async () => {
    s = await browserSession();
    ({ server, browser, page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('prints the certificate in the Revenue Department\'s layout, as the reviewed reference shows it', async () => {
    const byCode = async (entity: string, code: string) => (await api('GET', `/api/${entity}?filter=${encodeURIComponent(JSON.stringify({ code: { _eq: code } }))}`)).data[0].id as number;
    const made = await api('POST', '/api/withholding_tax', {
      doc_date: '2026-11-18', paid_date: '2026-11-18', your_company_id: await byCode('your_company', 'TPT'), payee_type: 'supplier', supplier_id: await byCode('supplier', 'S001'),
      payee_tax_id: '0105547002151', income_type: '40_8', income_description: 'ค่าขนส่งเม็ดพลาสติก', pnd_form: 'pnd53', wht_rate: '1', amount_paid: 25000,
      payment_condition: 'withheld', book_no: '7', sequence_no: 3,
    });
    expect(made.success, JSON.stringify(made)).toBe(true);
    expect(made.data.tax_amount).toBe(250);
    await page.goto(new URL(`/withholding_tax/${made.data.id}`, server.baseUrl).toString());
    // the PDF the browser receives, taken on its way (the app opens it as a blob in a new window)
    let captured: { status: number; body: Buffer } | null = null;
    await page.route(`**/api/withholding_tax/${made.data.id}/pdf*`, async (route) => {
      const r = await route.fetch();
      captured = { status: r.status(), body: await r.body() };
      await route.fulfill({ response: r, body: captured.body });
    });
    await page.getByTestId('document-print').click();
    const popup = page.context().waitForEvent('page');
    await page.getByRole('menuitem', { name: 'PDF ภาษาไทย' }).click();
    await (await popup).close();
    await expect.poll(() => captured?.status).toBe(200);
    const pdf = captured!.body;
    const png = firstPage(pdf);
    // a fresh checkout has no artifacts folder until some test makes it
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'withholding-certificate-copy1.png'), PNG.sync.write(png));
    if (process.env.UPDATE_REFERENCE === '1' || !existsSync(REFERENCE)) {
      writeFileSync(REFERENCE, PNG.sync.write(png));
      throw new Error(`wrote ${REFERENCE}: look at it, then run again`);
    }
    // the draft has no number yet and every value is fixed: only anti-aliasing may differ, a moved box may not
    expect(differingShare(png, PNG.sync.read(readFileSync(REFERENCE)))).toBeLessThan(0.001);
    expect(errors).toEqual([]);
  }, 120_000);

  it('shows the customer the PromptPay QR of their bill with the amount due; decoded, it pays that amount', async () => {
    const bills = (await api('GET', `/api/billing_note?filter=${encodeURIComponent(JSON.stringify({ customer_id: { _eq: 1 } }))}&limit=50`)).data as Array<Record<string, any>>;
    // a bill the customer sees: issued or partly paid (a draft is not shown on the portal, access.customerStates)
    const bill = bills.find((b) => b.status === 'issued' || b.status === 'partially_paid');
    expect(bill, 'a demo bill of customer 1 with something due').toBeDefined();
    const company = (await api('GET', `/api/your_company/${bill!.your_company_id}`)).data;
    expect((await api('PATCH', `/api/your_company/${company.id}`, { promptpay_id: company.tax_id })).success).toBe(true);
    const due = (await api('GET', `/api/billing_note/${bill!.id}/promptpay`)).data;
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'th-TH' });
    const p = await ctx.newPage();
    const portalErrors = watchErrors(p);
    await p.goto(new URL('/signin/customer/1', server.baseUrl).toString());
    await p.getByLabel('ชื่อผู้ใช้').fill('customer1');
    await p.getByLabel('รหัสผ่าน').fill(DEMO_PASSWORD);
    await p.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await p.waitForURL('**/customerpage/1/bill');
    await p.goto(new URL(`/customerpage/1/bill/${bill!.id}`, server.baseUrl).toString());
    const qr = p.getByTestId('promptpay-qr');
    await qr.waitFor();
    expect(await p.getByTestId('promptpay-amount').innerText()).toBe(due.amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    const png = PNG.sync.read(await qr.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data;
    expect(decoded).toBe(due.payload);
    expect(Number(parse(decoded!, true)!.getTagValue('54'))).toBe(due.amount);
    await p.screenshot({ path: join(ARTIFACTS, 'portal-bill-promptpay.png'), fullPage: true });
    expect(portalErrors).toEqual([]);
    await ctx.close();
  }, 120_000);
});
