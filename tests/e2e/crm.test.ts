import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserSession, closeSession, dismissToasts, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * CRM in headless Chromium against the real server: companies with inline
 * addresses, related lists, colour chips, fillFrom, the working record's modal
 * edit box, alerts with the live header badge, and file attachments.
 */
describe('CRM end to end', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  let adminId: number;
  let companyId: number;
  let contactId: number;
  const url = (p: string) => s.url(p);

  /** Picks an option of a link field (the searchable dropdown). */
  async function pickLink(input: Locator, option: string) {
    await input.click();
    await input.fill(option);
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  const badge = () => page.getByTestId('notification-button');
  const badgeCount = async () => Number(((await badge().getAttribute('aria-label')) ?? '').replace(/[^0-9]/g, '') || '0');

  beforeAll(async () => {
    s = await browserSession({
      context: { acceptDownloads: true },
      arrange: async (api) => { adminId = (await api('POST', '/api/user/id', { user_id: 1 })).data?.id ?? 1; },
    });
    ({ page, errors, api } = s);
  }, 180_000);

  afterAll(() => closeSession(s));

  it('creates a company with two inline addresses, removes one, and the server keeps only the other', async () => {
    await page.goto(url('/company'));
    await page.getByTestId('list-create').click();
    await page.waitForURL('**/company/create');
    // $CURRENT_USER shows prefilled on create
    await expect.poll(() => page.locator('#field-owner_by').inputValue()).toBe('admin');
    await page.locator('#field-customer_name_th').fill('บริษัท ซีอาร์เอ็ม ทดสอบ จำกัด');
    await page.locator('#field-customer_name_eng').fill('CRM Test Co., Ltd.');
    await page.locator('#field-phone_number1').fill('02-111-2222');
    const lines = page.locator('[data-field=address_list]');
    await lines.getByRole('button', { name: 'เพิ่มรายการ' }).click();
    await lines.getByRole('button', { name: 'เพิ่มรายการ' }).click();
    await page.locator('#address_list-0-address_line').fill('99/1 ถนนพระราม 9');
    await page.locator('#address_list-0-province').fill('กรุงเทพมหานคร');
    await page.locator('#address_list-0-postal_code').fill('10310');
    await page.locator('#address_list-1-address_line').fill('1 นิคมอุตสาหกรรมบางปู');
    await page.locator('#address_list-1-province').fill('สมุทรปราการ');
    await page.locator('#address_list-1-postal_code').fill('10280');
    await page.locator('[data-field=address_list]').scrollIntoViewIfNeeded();
    await shot(page, '20-company-create');
    await page.keyboard.press('Control+s');
    await page.waitForURL(/\/company\/\d+$/);
    companyId = Number(page.url().split('/').pop());
    const created = await api('GET', `/api/company/${companyId}`);
    expect(created.data.owner_by).toBe(adminId);
    expect(created.data.address_list.map((a: any) => a.address_line)).toEqual(['99/1 ถนนพระราม 9', '1 นิคมอุตสาหกรรมบางปู']);

    // remove the second address and save: the server deletes it in the same write
    await page.locator('#address_list-1-address_line').waitFor();
    await lines.getByRole('button', { name: 'ลบรายการ 2' }).click();
    await expect.poll(() => page.locator('#address_list-1-address_line').count()).toBe(0);
    await page.getByRole('button', { name: 'บันทึก', exact: true }).click();
    await expect.poll(async () => (await api('GET', `/api/company/${companyId}`)).data.address_list.length).toBe(1);
    const kept = (await api('GET', `/api/company/${companyId}`)).data.address_list;
    expect(kept[0]).toMatchObject({ address_line: '99/1 ถนนพระราม 9', province: 'กรุงเทพมหานคร', postal_code: '10310' });
    expect(kept[0].id).toBe(created.data.address_list[0].id); // updated in place, not re-inserted
  }, 90_000);

  it('adds a contact and a prospect from the company; fillFrom fills mobile and email; the priority chip shows its colour', async () => {
    // contact, from the company's related list, in a modal with the company prefilled and locked
    const contacts = page.locator('[data-related=contacts]');
    await contacts.getByRole('button', { name: 'เพิ่ม ผู้ติดต่อ' }).click();
    const contactBox = page.getByTestId('form-modal-contact');
    await contactBox.waitFor();
    await expect.poll(() => page.locator('#contact-field-customer_id').inputValue()).toBe('บริษัท ซีอาร์เอ็ม ทดสอบ จำกัด');
    expect(await page.locator('#contact-field-customer_id').isDisabled()).toBe(true);
    await page.locator('#contact-field-contact_name').fill('สมศรี ใจดี');
    await page.locator('#contact-field-position').fill('ผู้จัดการฝ่ายจัดซื้อ');
    await page.locator('#contact-field-mobile_number').fill('081-234-5678');
    await page.locator('#contact-field-email').fill('somsri@example.co.th');
    await dismissToasts(page);
    await shot(page, '21-contact-modal');
    await page.locator('#contact-field-email').press('Control+s'); // Ctrl+S saves (Enter moves to the next field, issue 38 §6)
    await contactBox.waitFor({ state: 'detached' });
    await expect.poll(() => contacts.locator('tbody tr').first().textContent()).toContain('สมศรี ใจดี');
    const contact = await api('GET', `/api/contact?filter=${encodeURIComponent(JSON.stringify({ customer_id: { _eq: companyId } }))}`);
    expect(contact.data).toHaveLength(1);
    contactId = contact.data[0].id;

    // prospect: choosing the contact fills its mobile and email (still editable)
    const prospects = page.locator('[data-related=prospects]');
    await prospects.getByRole('button', { name: 'เพิ่ม โอกาสการขาย' }).click();
    const prospectBox = page.getByTestId('form-modal-prospect');
    await prospectBox.waitFor();
    await expect.poll(() => page.locator('#prospect-field-owner_id').inputValue()).toBe('admin');
    await pickLink(page.locator('#prospect-field-contact_id'), 'สมศรี ใจดี');
    await expect.poll(() => page.locator('#prospect-field-contact_mobile').inputValue()).toBe('081-234-5678');
    await expect.poll(() => page.locator('#prospect-field-contact_email').inputValue()).toBe('somsri@example.co.th');
    await page.locator('#prospect-field-contact_email').fill('somsri.buyer@example.co.th'); // still editable
    await pickLink(page.locator('#prospect-field-prospect_priority_id'), 'สูง');
    await expect.poll(() => prospectBox.locator('[data-field=prospect_priority_id] .bo-link-select').getAttribute('data-color')).toBe('#EF4444');
    await pickLink(page.locator('#prospect-field-prospect_type_id'), (await api('GET', '/api/prospect_type?limit=1&sort=code')).data[0].name_th);
    await page.locator('#prospect-field-product_detail').fill('ฟิล์มยืดพันพาเลท 500 ม้วน');
    await page.locator('#prospect-field-prospect_price').pressSequentially('125000');
    await dismissToasts(page);
    await shot(page, '22-prospect-modal');
    await page.keyboard.press('Control+s');
    await prospectBox.waitFor({ state: 'detached' });
    const row = prospects.locator('tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('สูง');
    expect(await row.locator('.bo-chip', { hasText: 'สูง' }).getAttribute('data-color')).toBe('#ef4444');
    const stored = await api('GET', `/api/prospect?filter=${encodeURIComponent(JSON.stringify({ customer_id: { _eq: companyId } }))}`);
    expect(stored.data[0]).toMatchObject({ prospect_price: 125000, contact_id: contactId, contact_mobile: '081-234-5678', contact_email: 'somsri.buyer@example.co.th', owner_id: adminId });

    // a priority without a colour shows #000 (the colour field's default)
    const plain = await api('POST', '/api/prospect_priority', { code: 'NOCOLOR', name_th: 'ไม่ระบุสี', level: 9, color: null });
    expect(plain.success).toBe(true);
    expect(plain.data.color ?? null).toBeNull();
    await api('POST', '/api/prospect', { customer_id: companyId, product_detail: 'งานเสริม ไม่ระบุสี', prospect_priority_id: plain.data.id });
    await page.goto(url('/prospect'));
    const list = page.getByTestId('entity-list');
    await list.locator('tbody tr').first().waitFor();
    expect(await list.locator('.bo-chip', { hasText: 'ไม่ระบุสี' }).getAttribute('data-color')).toBe('#000000');
    // the demo business has prospects too: every high-priority chip carries the same colour
    const high = list.locator('.bo-chip', { hasText: 'สูง' });
    expect(await high.count()).toBeGreaterThan(0);
    for (const chip of await high.all()) expect(await chip.getAttribute('data-color')).toBe('#ef4444');
    await dismissToasts(page);
    await shot(page, '23-prospect-list');
  }, 90_000);

  it('creates a working record in its modal box, adds an alert for me due now, and the header badge changes without a reload', async () => {
    await page.goto(url('/working_record'));
    await page.getByTestId('entity-list').waitFor();
    const before = await badgeCount();
    await page.getByTestId('list-create').click();
    await page.waitForURL('**/working_record/create');
    const box = page.getByTestId('form-modal-working_record');
    await box.waitFor();
    // the list stays behind the box
    expect(await page.getByTestId('entity-list').count()).toBe(1);
    // $NOW and $CURRENT_USER show prefilled; the number is left to the series
    expect(await page.locator('#working_record-field-note_time').inputValue()).toMatch(/^\d{1,2} \S+ 25\d\d \d\d:\d\d$/); // Buddhist-era year, Bangkok time
    await expect.poll(() => page.locator('#working_record-field-owner_id').inputValue()).toBe('admin');
    expect(await page.locator('#working_record-field-run_number').inputValue()).toBe('');

    // Esc with unsaved changes asks first; cancelling keeps the box and its text
    await page.locator('#working_record-field-subject').fill('โทรติดตามใบเสนอราคา');
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('dialog', { name: 'ยังไม่ได้บันทึก' });
    await confirm.waitFor();
    await dismissToasts(page);
    await shot(page, '24-working-record-unsaved');
    await confirm.getByRole('button', { name: /CANCEL|ยกเลิก/ }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await page.locator('#working_record-field-subject').inputValue()).toBe('โทรติดตามใบเสนอราคา');

    // so does the browser's Back button: the box stands for the route /working_record/create
    await page.goBack({ waitUntil: 'commit', timeout: 5000 }).catch(() => undefined);
    const leave = page.getByRole('dialog', { name: 'ยังไม่ได้บันทึก' });
    await leave.waitFor();
    await leave.getByRole('button', { name: /CANCEL|ยกเลิก/ }).click();
    await leave.waitFor({ state: 'detached' });
    await expect.poll(() => new URL(page.url()).pathname).toBe('/working_record/create');
    expect(await page.locator('#working_record-field-subject').inputValue()).toBe('โทรติดตามใบเสนอราคา');

    await pickLink(page.locator('#working_record-field-company_id'), 'บริษัท ซีอาร์เอ็ม ทดสอบ จำกัด');
    await pickLink(page.locator('#working_record-field-contact_id'), 'สมศรี ใจดี');
    await page.locator('#working_record-field-detail').fill('ลูกค้าขอให้ส่งตัวอย่างฟิล์มเพิ่ม 2 ม้วน');
    await dismissToasts(page);
    await shot(page, '25-working-record-create');
    await page.locator('#working_record-field-subject').press('Control+s'); // Ctrl+S saves
    // the box turns into the edit of the new record, numbered by the server
    await page.waitForURL(/\/working_record\/\d+$/);
    const wrId = Number(page.url().split('/').pop());
    await expect.poll(() => page.locator('#working_record-field-run_number').inputValue()).toMatch(/^WR\d{4}-\d{4}$/);
    const wr = await api('GET', `/api/working_record/${wrId}`);
    expect(wr.data).toMatchObject({ subject: 'โทรติดตามใบเสนอราคา', company_id: companyId, contact_id: contactId, owner_id: adminId, status: 'open' });

    // an alert for me, due now, from the record's related list (a box over the box)
    const alerts = box.locator('[data-related=alerts]');
    await alerts.getByRole('button', { name: 'เพิ่ม การแจ้งเตือน' }).click();
    const alertBox = page.getByTestId('form-modal-alert');
    await alertBox.waitFor();
    await expect.poll(() => page.locator('#alert-field-user_id').inputValue()).toBe('admin');
    expect(await page.locator('#alert-field-due_at').inputValue()).toMatch(/^\d{1,2} \S+ 25\d\d \d\d:\d\d$/);
    await expect.poll(() => page.locator('#alert-field-working_record_id').inputValue()).toBe('โทรติดตามใบเสนอราคา');
    await page.locator('#alert-field-title').fill('ส่งตัวอย่างฟิล์มให้คุณสมศรี');
    await page.locator('#alert-field-message').fill('นัดส่งตัวอย่างภายในสัปดาห์นี้');
    await dismissToasts(page);
    await shot(page, '26-alert-modal');
    await page.locator('#alert-field-title').press('Control+s');
    await alertBox.waitFor({ state: 'detached' });
    await expect.poll(() => alerts.locator('tbody tr').first().textContent()).toContain('ส่งตัวอย่างฟิล์มให้คุณสมศรี');
    // the socket pushes the new unread count: the badge moves with no reload
    await expect.poll(badgeCount, { timeout: 10_000 }).toBe(before + 1);
    await page.getByTestId('notification-badge').waitFor();
    await dismissToasts(page);
    await shot(page, '27-working-record-with-alert');

    // Esc without changes closes the box, back on the list
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/working_record$/);
    await box.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('entity-list').locator('tbody tr').first().textContent()).toContain('โทรติดตามใบเสนอราคา');
    await dismissToasts(page);
    await shot(page, '28-working-record-list');

    // a row opens the same box for edit
    await page.getByTestId('entity-list').locator('tbody tr').first().click();
    await page.waitForURL(`**/working_record/${wrId}`);
    await box.waitFor();
    await expect.poll(() => page.locator('#working_record-field-subject').inputValue()).toBe('โทรติดตามใบเสนอราคา');
    await page.locator('#working_record-field-subject').fill('โทรติดตามใบเสนอราคา (รอบ 2)');
    await page.keyboard.press('Control+s');
    await box.waitFor({ state: 'detached' });
    await page.waitForURL(/\/working_record$/);
    expect((await api('GET', `/api/working_record/${wrId}`)).data.subject).toBe('โทรติดตามใบเสนอราคา (รอบ 2)');
  }, 90_000);

  it('the Notification button lists unread alerts; opening one marks it read and the badge goes down', async () => {
    const before = await badgeCount();
    expect(before).toBeGreaterThan(0);
    await dismissToasts(page);
    await badge().click();
    const panel = page.getByTestId('notification-panel');
    await panel.getByRole('link', { name: /ส่งตัวอย่างฟิล์มให้คุณสมศรี/ }).waitFor();
    await shot(page, '29-notification-panel');
    await panel.getByRole('link', { name: /ส่งตัวอย่างฟิล์มให้คุณสมศรี/ }).click();
    await page.waitForURL(/\/view_alert\/\d+$/);
    const alertId = Number(page.url().split('/').pop());
    await page.getByTestId('view-record').waitFor();
    await expect.poll(async () => (await api('GET', `/api/alert/${alertId}`)).data.is_read).toBe(true);
    await expect.poll(badgeCount, { timeout: 10_000 }).toBe(before - 1);
    await page.getByTestId('view-record').getByText('อ่านแล้ว', { exact: true }).last().waitFor();
    await dismissToasts(page);
    await shot(page, '30-view-alert');

    // /alert lists my alerts
    await page.goto(url('/alert'));
    await page.getByTestId('entity-list').locator('tbody tr', { hasText: 'ส่งตัวอย่างฟิล์มให้คุณสมศรี' }).waitFor();
  }, 60_000);

  it('uploads a file to the company: /attachment/{id} and the company\'s attachments list show it, with a download', async () => {
    await page.goto(url(`/attachment/${companyId}`));
    const section = page.locator('[data-related=attachments]');
    await section.waitFor();
    await page.getByRole('heading', { level: 1, name: /บริษัท ซีอาร์เอ็ม ทดสอบ จำกัด/ }).waitFor();
    const content = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    await section.getByLabel(/อัปโหลดและแนบไฟล์/).setInputFiles({ name: 'ใบเสนอราคา-QT001.pdf', mimeType: 'application/pdf', buffer: content });
    await expect.poll(() => section.locator('tbody tr').first().textContent()).toContain('ใบเสนอราคา-QT001.pdf');
    const stored = await api('GET', `/api/attachment?filter=${encodeURIComponent(JSON.stringify({ company_id: { _eq: companyId } }))}`);
    expect(stored.data).toHaveLength(1);
    expect(stored.data[0]).toMatchObject({ file_name: 'ใบเสนอราคา-QT001.pdf', mime_type: 'application/pdf', size: content.length });
    await dismissToasts(page);
    await shot(page, '31-attachments');

    // a refused file: the person sees a toast, nothing is attached
    await section.getByLabel(/อัปโหลดและแนบไฟล์/).setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]) });
    await page.locator('.p-toast-message-error', { hasText: 'อัปโหลดไฟล์ไม่สำเร็จ' }).waitFor();
    expect((await api('GET', `/api/attachment?filter=${encodeURIComponent(JSON.stringify({ company_id: { _eq: companyId } }))}`)).data).toHaveLength(1);

    // the company's own attachments list shows it; download fetches it with the token
    await page.goto(url(`/company/${companyId}`));
    const onCompany = page.locator('[data-related=attachments]');
    await expect.poll(() => onCompany.locator('tbody tr').first().textContent()).toContain('ใบเสนอราคา-QT001.pdf');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      onCompany.getByRole('button', { name: /ดาวน์โหลด ใบเสนอราคา-QT001.pdf/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('ใบเสนอราคา-QT001.pdf');

    // the generic form's file widget: upload, the stored name shows, file_name/size fill themselves
    await onCompany.getByRole('button', { name: 'เพิ่ม ไฟล์แนบ' }).click();
    const box = page.getByTestId('form-modal-attachment');
    await box.waitFor();
    await page.locator('#attachment-field-file').setInputFiles({ name: 'รายชื่อสินค้า.csv', mimeType: 'text/csv', buffer: Buffer.from('code,name\nP001,ฟิล์มยืด\n') });
    await box.locator('.bo-file-name', { hasText: 'รายชื่อสินค้า.csv' }).waitFor();
    await expect.poll(() => page.locator('#attachment-field-file_name').inputValue()).toBe('รายชื่อสินค้า.csv');
    await page.locator('#attachment-field-description').fill('รายการสินค้าที่ลูกค้าสนใจ');
    await dismissToasts(page);
    await shot(page, '32-attachment-modal');
    await page.keyboard.press('Control+s');
    await box.waitFor({ state: 'detached' });
    await expect.poll(() => onCompany.locator('tbody tr').count()).toBe(2);
    await page.locator('[data-related=contacts] tbody tr').first().waitFor();
    await dismissToasts(page);
    await page.locator('[data-related=contacts]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, '33-company-related-lists');
  }, 90_000);

  it('pages a related list longer than one page', async () => {
    const items = Array.from({ length: 105 }, (_, i) => ({ contact_name: `ผู้ติดต่อหน้า ${String(i + 1).padStart(3, '0')}`, customer_id: companyId }));
    const res = await api('POST', '/api/contact/bulk', { items });
    expect(res.success, JSON.stringify(res).slice(0, 300)).toBe(true);
    await page.goto(url(`/company/${companyId}`));
    const pager = page.getByTestId('related-pager-contacts');
    await pager.waitFor();
    const rows = page.locator('[data-related=contacts] tbody tr');
    await expect.poll(() => rows.count()).toBe(100);
    const total = 105 + 1; // plus the contact added through the form above
    await expect.poll(async () => pager.textContent()).toContain(`1–100`);
    await pager.getByRole('button', { name: 'หน้าถัดไป' }).click();
    await expect.poll(() => rows.count()).toBe(total - 100);
    await expect.poll(async () => pager.textContent()).toContain(`101–${total}`);
    expect(await pager.getByRole('button', { name: 'หน้าถัดไป' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'หน้าก่อนหน้า' }).click();
    await expect.poll(() => rows.count()).toBe(100);
  }, 90_000);

  it('threw no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
