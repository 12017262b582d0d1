import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSession, closeSession, dismissToasts, openInApp, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

type Row = Record<string, any>;

/**
 * Issue 38 §1 and §7 in Thai: every create-from a schema declares is a button on its posted source
 * that opens the create-from screen with the source chosen; the chain quotation → sales order →
 * billing note → receipt → tax invoice is followed with clicks only, each posting asks once, and
 * each source's status follows.
 */
describe('the document chain in the browser', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);

  beforeAll(async () => {
    s = await browserSession();
    ({ page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  /** Every declared `from` of every schema, with its words (from the schemas the server serves). */
  async function declaredFroms(): Promise<Array<{ target: string; source: Row; label: string; action: string }>> {
    const out: Array<{ target: string; source: Row; label: string; action: string }> = [];
    for (const s of (await api('GET', '/api/meta/entities')).data as Row[]) {
      const meta = (await api('GET', `/api/meta/entities/${s.name}`)).data;
      for (const f of meta?.entity.document?.from ?? []) out.push({ target: s.name, source: f, label: f.label.th, action: f.action.th });
    }
    return out;
  }

  /**
   * A posted document of `source` when the demo data has none in the states asked for (its purchase
   * orders are all received): a copy of its newest one, with the lines' products, quantities and prices, posted.
   */
  async function postedCopy(source: string, meta: Row): Promise<Row> {
    const last = (await api('GET', `/api/${source}?sort=-id&limit=1`)).data[0];
    const full = (await api('GET', `/api/${source}/${last.id}`)).data;
    const linesField = meta.document.lines as string;
    const child = (await api('GET', `/api/meta/entities/${source}`)).data.related[meta.fields[linesField].entity];
    const writable = (schema: Row, name: string) => { const f = schema.fields[name]; return f && !f.readOnly && f.type !== 'lines' && !['source_line_id', 'source_entity', 'amended_from'].includes(name); };
    const body: Row = {};
    for (const [k, v] of Object.entries(full)) if (k !== meta.workflow.field && k !== meta.numbering?.field && writable(meta, k) && v !== null) body[k] = v;
    body[linesField] = (full[linesField] as Row[]).map((l) => Object.fromEntries(Object.entries(l).filter(([k, v]) => k !== child.parent.field && writable(child, k) && v !== null)));
    const made = await api('POST', `/api/${source}`, body);
    expect(made.success, JSON.stringify(made)).toBe(true);
    const posted = await api('POST', `/api/${source}/${made.data.id}/actions/${meta.document.postAction ?? 'approve'}`);
    expect(posted.success, JSON.stringify(posted)).toBe(true);
    return posted.data;
  }

  it('offers every declared create-from on its posted source, and opens it with the source chosen', async () => {
    const froms = await declaredFroms();
    expect(froms.length).toBeGreaterThanOrEqual(12);
    for (const f of froms) {
      const meta = (await api('GET', `/api/meta/entities/${f.source.source}`)).data.entity;
      const filter = encodeURIComponent(JSON.stringify({ [meta.workflow.field]: { _in: f.source.states } }));
      const open = (await api('GET', `/api/${f.source.source}?filter=${filter}&sort=-id&limit=1`)).data as Row[];
      const doc = open[0] ?? await postedCopy(f.source.source, meta);
      await openInApp(page, `/${f.source.source}/${doc.id}`);
      const button = page.locator(`[data-create-from="/${f.target}/${f.source.source}"]`);
      await button.waitFor();
      expect((await button.innerText()).trim(), `${f.target} from ${f.source.source}`).toBe(f.action);
      await button.click();
      await page.waitForURL((u) => u.pathname === `/${f.target}/${f.source.source}` && u.searchParams.get('source') === String(doc.id));
      await expect.poll(() => page.locator('h1').first().innerText()).toBe(f.label);
      const title = String(doc[meta.titleField] ?? '');
      await expect.poll(() => page.getByRole('checkbox', { name: title, exact: true }).isChecked(), { message: `${f.target}/${f.source.source}: ${title} chosen` }).toBe(true);
      await page.getByTestId('create-from-lines').waitFor();
      // the party picker is named by the source's own field: a purchase order's supplier is not "a customer"
      if (f.source.source === 'purchase_order') expect(await page.getByTestId('create-from-customer').locator('option').first().innerText()).toBe('ผู้ขายทุกราย (เลือกเพื่อกรอง)');
      // the same action is in the source list's row menu
      await openInApp(page, `/${f.source.source}`);
      const row = page.getByTestId('entity-list').locator('tr', { hasText: title }).first();
      await row.getByTestId('row-menu').click();
      await page.getByRole('menuitem', { name: f.action }).waitFor();
      await page.keyboard.press('Escape');
    }
    await openInApp(page, '/quotation');
    expect(errors).toEqual([]);
  }, 300_000);

  const status = async (entity: string, id: number, field = 'status') => (await api('GET', `/api/${entity}/${id}`)).data[field];

  /** Clicks a posting action and confirms the question it asks (answering what the question said). */
  async function post(action: string): Promise<string> {
    await page.getByRole('button', { name: action, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const text = await dialog.innerText();
    await dialog.getByRole('button', { name: action, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    return text;
  }

  /** On a create-from screen opened from a source: the source is chosen; create the new draft. */
  async function createFromScreen(target: string): Promise<number> {
    await page.getByTestId('create-from-lines').waitFor();
    await page.getByTestId('create-from-submit').click();
    await page.waitForURL((u) => new RegExp(`^/${target}/\\d+$`).test(u.pathname));
    await dismissToasts(page);
    return Number(new URL(page.url()).pathname.split('/').pop());
  }

  it('follows quotation → sales order → billing note → receipt → tax invoice with clicks only', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1&sort=id`)).data[0].id as number;
    const company = await first('your_company');
    const q = (await api('POST', '/api/quotation', {
      doc_date: '2026-11-20', your_company_id: company, customer_id: await first('customer'), vat_type: 'exclude',
      items: [{ product_id: await first('product'), qty: 4, price: 500 }],
    })).data;
    await openInApp(page, `/quotation/${q.id}`);
    // a draft is saved, not posted: no next steps yet; leaving is not "ยกเลิก"
    await page.getByRole('button', { name: 'อนุมัติ', exact: true }).waitFor();
    expect(await page.locator('[data-create-from]').count()).toBe(0);
    expect(await page.locator('.bo-form-actions').getByRole('button', { name: 'ยกเลิก', exact: true }).count()).toBe(0);
    const asked = await post('อนุมัติ');
    expect(asked).toContain('แก้ไขไม่ได้อีก');
    await expect.poll(() => status('quotation', q.id)).toBe('approved');
    // posted: nothing to save or delete any more
    await page.getByRole('button', { name: 'สร้างใบสั่งขาย' }).waitFor();
    expect(await page.getByRole('button', { name: 'บันทึก', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'ลบ', exact: true }).count()).toBe(0);
    await shot(page, 'chain-01-quotation-approved');

    await page.getByRole('button', { name: 'สร้างใบสั่งขาย' }).click();
    const so = await createFromScreen('sales_order');
    await post('อนุมัติ');
    await expect.poll(() => status('quotation', q.id)).toBe('ordered');
    // the order links back to its quotation
    await page.getByTestId('document-chain').getByRole('link', { name: q.doc_no }).waitFor();

    await page.getByRole('button', { name: 'สร้างใบวางบิล' }).click();
    const bn = await createFromScreen('billing_note');
    await post('วางบิล');
    await expect.poll(() => status('billing_note', bn)).toBe('issued');
    await shot(page, 'chain-02-billing-note-issued');

    // the tax invoice before the payment (goods: the tax point is the delivery or the invoice); a receipt of a sale
    // that has its tax invoice is a plain receipt, and one tax invoice per supply (issue 44 §2)
    const bnNo = (await api('GET', `/api/billing_note/${bn}`)).data.bill_no as string;
    const soNo = (await api('GET', `/api/sales_order/${so}`)).data.doc_no as string;
    await page.getByTestId('document-chain').getByRole('link', { name: soNo }).click();
    await page.waitForURL((u) => u.pathname === `/sales_order/${so}`);
    await page.getByRole('button', { name: 'ออกใบกำกับภาษี' }).click();
    const iv = await createFromScreen('tax_invoice');
    // a draft tax invoice has no number yet: its title says so, never "#id"
    const h1 = await page.locator('h1').first().innerText();
    expect(h1).toContain('ฉบับร่าง');
    expect(h1).not.toMatch(/#\d/);
    const companyCode = (await api('GET', `/api/your_company/${company}`)).data.code as string;
    const question = await post('ออกใบกำกับภาษี');
    // the confirmation states the number series and the date the invoice gets (today: its date was left empty)
    expect(question).toContain(`ได้เลขที่ถัดไปของชุด ${companyCode}-IV`);
    expect(question).toMatch(/ลงวันที่ \d{1,2} \S+ 25\d\d/);
    await expect.poll(() => status('tax_invoice', iv)).toBe('issued');
    await expect.poll(() => status('sales_order', so, 'billing_status')).toBe('billed');

    await openInApp(page, `/billing_note/${bn}`);
    await page.getByRole('button', { name: 'รับชำระ' }).click();
    await page.waitForURL((u) => u.pathname === '/receipt/billing_note');
    const rc = await createFromScreen('receipt');
    await post('บันทึกรับชำระ');
    await expect.poll(() => status('receipt', rc)).toBe('posted');
    await expect.poll(() => status('billing_note', bn)).toBe('paid');
    expect((await api('GET', `/api/receipt/${rc}`)).data.tax_invoice_role).toBe('none');

    // back along the links: receipt → its billing note → its sales order
    await page.getByTestId('document-chain').getByRole('link', { name: bnNo }).click();
    await page.waitForURL((u) => u.pathname === `/billing_note/${bn}`);
    await page.getByTestId('document-chain').getByRole('link', { name: soNo }).click();
    await page.waitForURL((u) => u.pathname === `/sales_order/${so}`);
    await page.goto(url(`/sales_order/${so}`));
    const chain = page.getByTestId('document-chain');
    await chain.getByRole('link', { name: bnNo }).waitFor();
    await shot(page, 'chain-03-sales-order-links');
    expect(errors).toEqual([]);
  }, 180_000);
});
