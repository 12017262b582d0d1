/**
 * The e-Tax endpoints on real documents, both dialects: GET …/etax.xml and …/etax.pdf for a tax invoice,
 * a receipt, a credit note and a debit note made through the API (each XML checked by ETDA's XSD and
 * schematron), the cancellation note of a cancelled invoice, the print flag, 404 for documents the
 * standard does not cover, 409 for drafts; the XAdES-BES signature with a certificate made here; the
 * PDF/A-3 with the XML attached; the e-Tax e-mail to the local SMTP sink with the Revenue Department's
 * address in cc; the certificate status, which never shows the certificate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import forge from 'node-forge';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';
import { pdfAttachment, smtpSink } from '../support/smtp-sink.ts';
import { setSiteSettings } from '../support/site-settings.ts';
import { loadSigningKey, verifyEtaxXml } from '../../server/etax/etax-signer.ts';
import { EtaxMaker } from '../../server/etax/etax-maker.ts';
import { systemContext } from '../../server/crud/access-policy.ts';
import { etaxWarningTexts, type EtaxMessage } from '../../engine/etax/etax-codes.ts';
import { ETDA_DIR, ETDA_MISSING, schematronFailures, xsdErrors } from './etda-standard.ts';

type Row = Record<string, any>;
const RD = 'rd-timestamp@example.org';

/** A self-signed certificate and its key in a PKCS#12 file, as a company's e-Tax certificate would come. */
function selfSignedP12(password: string): Buffer {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '0a1b';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const name = [{ name: 'commonName', value: 'TPT e-Tax test' }, { name: 'countryName', value: 'TH' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return Buffer.from(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, { algorithm: '3des' })).getBytes(), 'binary');
}

/** The files attached inside a PDF, through poppler's pdfdetach. */
function attachedFiles(pdf: Buffer): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'etax-pdf-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    execFileSync('pdfdetach', ['-saveall', '-o', dir, join(dir, 'doc.pdf')]);
    const list = execFileSync('pdfdetach', ['-list', join(dir, 'doc.pdf')], { encoding: 'utf8' });
    const names = list.split('\n').slice(1).map((l) => l.replace(/^\s*\d+:\s*/, '').trim()).filter(Boolean);
    return Object.fromEntries(names.map((n) => [n, readFileSync(join(dir, n), 'utf8')]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every XML the endpoints gave, checked by ETDA's files at the end (a test of its own, skipped without them). */
const made: Array<{ what: string; xml: string; message: EtaxMessage }> = [];
function expectEtdaValid(xml: string, message: EtaxMessage, what: string = message): void {
  made.push({ what, xml, message });
}
if (!ETDA_DIR) console.warn(ETDA_MISSING);

describe.each(testDialects())('e-Tax endpoints on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let invoice: Row, receipt: Row, receiptTax: Row, credit: Row, debit: Row;
  let company: number, customer: number;

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  const xmlOf = async (entity: string, id: number, query = '') => {
    const res = await c.call('GET', `/api/${entity}/${id}/etax.xml${query}`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    return res.body;
  };

  beforeAll(async () => {
    sink = await smtpSink();
    t = await createTestApp(dialect, undefined, {
      mail: { smtpUrl: sink.url, from: 'billing@example.co.th' },
      etax: { signing: { p12: selfSignedP12('secret-pw'), password: 'secret-pw' }, rdEmail: RD },
    });
    c = new Client(t);
    company = await c.company();
    // the seller's address as the standard wants it: house number, TISI codes of แขวง/เขต, province, postcode
    await ok(c.call('PATCH', `/api/your_company/${company}`, c.admin, { address_line: '99/12 ถนนพระราม 4', sub_district: '100402', district: '1004', province: 'กรุงเทพมหานคร', postal_code: '10500' }));
    customer = await c.customer();
    await ok(c.call('PATCH', `/api/customer/${customer}`, c.admin, { address_line: '1 หมู่ 2 ถนนเพชรเกษม', sub_district: 'อ้อมน้อย', district: 'กระทุ่มแบน', province: 'สมุทรสาคร', postal_code: '74130', email: 'buyer@example.com' }));
    const product = await c.product();
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, {
      doc_date: '2026-11-03', your_company_id: company, customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: product, description: 'ฟิล์มยืด 50 ซม.', qty: 10, unit: 'ม้วน', price: 1000 }, { product_id: product, qty: 4, unit: 'ม้วน', price: 250 }],
    }), 201);
    invoice = await act('tax_invoice', ti.id, 'issue');
    const reason = (await ok(c.call('POST', '/api/return_reason', c.admin, { code: 'DMG', name_th: 'สินค้าชำรุด', return_side: 'sales' }), 201)).id;
    const cn = await ok(c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [ti.id], values: { return_reason_id: reason }, lines: [{ source_line_id: invoice.items[0].id, amount: 1070 }] }), 201);
    credit = await act('credit_note', cn.id, 'issue');
    const dn = await ok(c.call('POST', '/api/debit_note/from/tax_invoice', c.admin, { ids: [ti.id], values: { return_reason_id: reason }, lines: [{ source_line_id: invoice.items[1].id, qty: 4, price: 25 }] }), 201);
    debit = await act('debit_note', dn.id, 'issue');
    // a receipt without VAT is a plain receipt (T01); one with VAT, by the site's tax_invoice setting (full, the
    // default), also serves as a tax invoice: titled ใบเสร็จรับเงิน/ใบกำกับภาษี, exported as T03
    const rc = await ok(c.call('POST', '/api/receipt', c.admin, {
      doc_date: '2026-11-10', your_company_id: company, customer_id: customer, payment_method: 'cash', vat_type: 'none',
      items: [{ description: 'รับชำระค่าสินค้า', amount: 1070 }],
    }), 201);
    receipt = await act('receipt', rc.id, 'post');
    const rt = await ok(c.call('POST', '/api/receipt', c.admin, {
      doc_date: '2026-11-10', your_company_id: company, customer_id: customer, payment_method: 'cash', vat_type: 'exclude',
      items: [{ description: 'รับชำระค่าสินค้า', amount: 1070 }],
    }), 201);
    receiptTax = await act('receipt', rt.id, 'post');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it.each([
    ['tax_invoice', () => invoice, 'TaxInvoice', '388'],
    ['receipt', () => receipt, 'Receipt', 'T01'],
    ['receipt', () => receiptTax, 'TaxInvoice', 'T03'],
    ['credit_note', () => credit, 'DebitCreditNote', '81'],
    ['debit_note', () => debit, 'DebitCreditNote', '80'],
  ] as const)('%s: signed XML that ETDA\'s XSD and schematron accept', async (entity, doc, message, code) => {
    const xml = await xmlOf(entity, doc().id);
    expect(xml).toContain(`<ram:TypeCode>${code}</ram:TypeCode>`);
    expect(xml).toContain(`<ram:ID>${doc().doc_no}</ram:ID>`);
    expect(await verifyEtaxXml(xml)).toBe(true);
    expectEtdaValid(xml, message, entity);
  });

  it('a receipt is T03 when it was posted as a full tax invoice; changing the site setting later retitles nothing (issue 44 §2)', async () => {
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'abbreviated' });
    try {
      // posted while the setting said full: stays a tax invoice
      const kept = await xmlOf('receipt', receiptTax.id);
      expect(kept).toContain('<ram:TypeCode>T03</ram:TypeCode>');
      expect(kept).toContain('<ram:Name>ใบเสร็จรับเงิน/ใบกำกับภาษี</ram:Name>');
      // posted now: an abbreviated one, which has no T03 of its own
      const rt = await ok(c.call('POST', '/api/receipt', c.admin, {
        doc_date: '2026-11-10', your_company_id: company, customer_id: customer, payment_method: 'cash', vat_type: 'exclude',
        items: [{ description: 'รับชำระค่าสินค้า', amount: 535 }],
      }), 201);
      const posted = await act('receipt', rt.id, 'post');
      expect(posted.tax_invoice_role).toBe('abbreviated');
      const xml = await xmlOf('receipt', rt.id);
      expect(xml).toContain('<ram:TypeCode>T01</ram:TypeCode>');
      expect(xml).toContain('Receipt_CrossIndustryInvoice');
    } finally {
      await setSiteSettings(t.app, c.admin, { tax_invoice: 'full' });
    }
  });

  it('billing_note: an issued bill is an ETDA invoice (380); a draft one is not yet', async () => {
    const bill = await c.draftBillingNote(customer, company);
    expectError(await c.call('GET', `/api/billing_note/${bill}/etax.xml`, c.admin), 409, 'ETAX_INCOMPLETE');
    await act('billing_note', bill, 'issue');
    const xml = await xmlOf('billing_note', bill);
    expect(xml).toContain('<ram:TypeCode>380</ram:TypeCode>');
    expect(xml).toContain('<ram:Name>ใบแจ้งหนี้</ram:Name>');
    // ETDA's invoice message has no place for a signature: it is not a tax document
    expect(xml).not.toContain('Signature');
    expectEtdaValid(xml, 'Invoice', 'billing_note');
  });

  it('the notes name the tax invoice they correct; the amounts are the documents\' own', async () => {
    const xml = await xmlOf('credit_note', credit.id);
    expect(xml).toMatch(new RegExp(`<ram:IssuerAssignedID>${invoice.doc_no}</ram:IssuerAssignedID>\\s*<ram:IssueDateTime>2026-11-03T00:00:00</ram:IssueDateTime>\\s*<ram:ReferenceTypeCode>388</ram:ReferenceTypeCode>`));
    expect(xml).toContain(`<ram:OriginalInformationAmount>${Number(invoice.amount_before_vat).toFixed(2)}</ram:OriginalInformationAmount>`);
    expect(xml).toContain('<ram:Purpose>สินค้าชำรุด</ram:Purpose>');
    expect(xml).toContain(`<ram:GrandTotalAmount>${Number(credit.total_amount).toFixed(2)}</ram:GrandTotalAmount>`);
    const ti = await xmlOf('tax_invoice', invoice.id);
    expect(ti).toContain(`<ram:TaxTotalAmount>${Number(invoice.vat_amount).toFixed(2)}</ram:TaxTotalAmount>`);
    // a tampered document no longer verifies
    expect(await verifyEtaxXml(ti.replace(`${Number(invoice.vat_amount).toFixed(2)}<`, '0.00<'))).toBe(false);
  });

  it('names the ETDA rules a company record does not meet yet (x-etax-warnings), and none for a complete one', async () => {
    const complete = await c.call('GET', `/api/tax_invoice/${invoice.id}/etax.xml`, c.admin);
    expect(complete.headers['x-etax-warnings']).toBeUndefined();
    // a company whose แขวง and เขต are names, not TISI 1099 codes
    const named = await c.company();
    await ok(c.call('PATCH', `/api/your_company/${named}`, c.admin, { address_line: '555 หมู่ 17 ถนนกิ่งแก้ว', sub_district: 'ราชาเทวะ', district: 'บางพลี', province: 'สมุทรปราการ', postal_code: '10540' }));
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-06', your_company_id: named, customer_id: customer, items: [{ product_id: await c.product(), qty: 1, price: 100 }] }), 201);
    await act('tax_invoice', ti.id, 'issue');
    const res = await c.call('GET', `/api/tax_invoice/${ti.id}/etax.xml`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-etax-warnings']).toBe('TIV-SellerTradeParty-010,TIV-SellerTradeParty-011');
    expect(etaxWarningTexts(String(res.headers['x-etax-warnings']), 'th')).toEqual(['เขต/อำเภอของบริษัทผู้ออกเอกสารต้องเป็นรหัส 4 หลักตาม มอก. 1099', 'แขวง/ตำบลของบริษัทผู้ออกเอกสารต้องเป็นรหัส 6 หลักตาม มอก. 1099']);
    // and ETDA's schematron agrees: exactly those two rules fail
    if (!ETDA_DIR) return;
    expect(xsdErrors(res.body, 'TaxInvoice')).toBe('');
    expect(schematronFailures(res.body, 'TaxInvoice').map((f) => f.match(/TIV-[A-Za-z]+-\d+/)?.[0])).toEqual(['TIV-SellerTradeParty-010', 'TIV-SellerTradeParty-011']);
  });

  it('the company\'s TISI 1099 code fields, when filled, make the seller\'s address pass those rules (the demo companies\' codes)', async () => {
    const named = await c.company();
    // the demo TPF's address: ตำบลราชาเทวะ 110308, อำเภอบางพลี 1103 (ETDA's TISICitySubDivisionName / TISICityName lists)
    await ok(c.call('PATCH', `/api/your_company/${named}`, c.admin, { address_line: '555 หมู่ 17 ถนนกิ่งแก้ว', sub_district: 'ราชาเทวะ', district: 'บางพลี', province: 'สมุทรปราการ', postal_code: '10540', sub_district_code: '110308', district_code: '1103' }));
    expectError(await c.call('PATCH', `/api/your_company/${named}`, c.admin, { district_code: 'บางพลี' }), 400, 'VALIDATION_FAILED');
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-06', your_company_id: named, customer_id: customer, items: [{ product_id: await c.product(), qty: 1, price: 100 }] }), 201);
    await act('tax_invoice', ti.id, 'issue');
    const res = await c.call('GET', `/api/tax_invoice/${ti.id}/etax.xml`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-etax-warnings']).toBeUndefined();
    const seller = res.body.slice(res.body.indexOf('<ram:SellerTradeParty>'), res.body.indexOf('</ram:SellerTradeParty>'));
    expect(seller).toContain('<ram:CityName>1103</ram:CityName>');
    expect(seller).toContain('<ram:CitySubDivisionName>110308</ram:CitySubDivisionName>');
    expect(seller).toContain('<ram:CountrySubDivisionID>11</ram:CountrySubDivisionID>');
    if (!ETDA_DIR) return;
    expect(xsdErrors(res.body, 'TaxInvoice')).toBe('');
    expect(schematronFailures(res.body, 'TaxInvoice')).toEqual([]);
  });

  it('the demo companies carry the TISI 1099 codes of their real addresses', () => {
    const rows = (JSON.parse(readFileSync(resolve(import.meta.dirname, '../../seed/demo/020-your_company.json'), 'utf8')) as { rows: Array<Record<string, string>> }).rows;
    const codes = Object.fromEntries(rows.map((r) => [r.code, [r.sub_district, r.sub_district_code, r.district, r.district_code]]));
    expect(codes.TPT).toEqual(['บางนาใต้', '104703', 'บางนา', '1047']);
    expect(codes.TPF).toEqual(['ราชาเทวะ', '110308', 'บางพลี', '1103']);
  });

  it('unsigned when no certificate is configured', async () => {
    // a document whose e-Tax file is not made yet: a made one is kept as it was made (etax-store.ts)
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-03', your_company_id: company, customer_id: customer, items: [{ product_id: await c.product(), qty: 1, price: 100 }] }), 201);
    await act('tax_invoice', ti.id, 'issue');
    const maker = new EtaxMaker(t.service, t.policy, { signing: null, rdEmail: null });
    const f = await maker.files(t.service.entity('tax_invoice'), ti.id, systemContext, 'print', false);
    expect(f.signed).toBe(false);
    expect(f.xml).not.toContain('Signature');
    expectEtdaValid(f.xml, 'TaxInvoice');
  });

  it('PDF/A-3 with the XML as its associated file', async () => {
    const res = await c.call('GET', `/api/tax_invoice/${invoice.id}/etax.pdf`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    const raw = pdf.toString('latin1');
    expect(raw).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(raw).toContain('urn:etda:pdfa:CrossIndustryDocument:invoice:1p0#');
    expect(raw).toMatch(/\/AF \[/);
    expect(raw).toContain('/AFRelationship /Source');
    expect(raw).toContain('/GTS_PDFA1');
    const files = attachedFiles(pdf);
    const name = Object.keys(files)[0]!;
    expect(name).toMatch(/^tax_invoice-.*\.xml$/);
    expect(files[name]).toContain(`<ram:ID>${invoice.doc_no}</ram:ID>`);
    expect(await verifyEtaxXml(files[name]!)).toBe(true);
  });

  it('a cancelled invoice has its cancellation note (T07); one still live does not', async () => {
    expectError(await c.call('GET', `/api/tax_invoice/${invoice.id}/etax.xml?cancellation=1`, c.admin), 409, 'ETAX_INCOMPLETE');
    const product = await c.product();
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-04', your_company_id: company, customer_id: customer, items: [{ product_id: product, qty: 1, price: 100 }] }), 201);
    const issued = await act('tax_invoice', ti.id, 'issue');
    await act('tax_invoice', ti.id, 'cancel');
    expectError(await c.call('GET', `/api/tax_invoice/${ti.id}/etax.xml`, c.admin), 409, 'ETAX_INCOMPLETE');
    const xml = await xmlOf('tax_invoice', ti.id, '?cancellation=1');
    expect(xml).toContain('<ram:TypeCode>T07</ram:TypeCode>');
    expect(xml).toContain(`<ram:IssuerAssignedID>${issued.doc_no}</ram:IssuerAssignedID>`);
    expectEtdaValid(xml, 'CancellationNote');
  });

  it('needs the print flag; documents the standard does not cover and drafts answer in Thai', async () => {
    const viewer = await c.staff('etax_no_print', { tax_invoice: { view: true, email: true, export: true } });
    expectError(await c.call('GET', `/api/tax_invoice/${invoice.id}/etax.xml`, viewer.headers), 403, 'FORBIDDEN');
    expectError(await c.call('GET', `/api/tax_invoice/${invoice.id}/etax.pdf`, viewer.headers), 403, 'FORBIDDEN');
    const printer = await c.staff('etax_print', { tax_invoice: { view: true, print: true } });
    expect((await c.call('GET', `/api/tax_invoice/${invoice.id}/etax.xml`, printer.headers)).statusCode).toBe(200);

    // a quotation is no document of the standard
    const quote = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-03', your_company_id: company, customer_id: customer, items: [{ product_id: await c.product(), qty: 1, price: 100 }] }), 201);
    for (const path of [`/api/quotation/${quote.id}/etax.xml`, `/api/quotation/${quote.id}/etax.pdf`]) {
      const res = await c.call('GET', path, { ...c.admin, 'accept-language': 'th' });
      expectError(res, 404, 'ETAX_NOT_SUPPORTED');
      expect(res.json().error.message).toContain('ใบเสนอราคา');
    }
    const draft = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-03', your_company_id: company, customer_id: customer, items: [{ product_id: await c.product(), qty: 1, price: 100 }] }), 201);
    const res = await c.call('GET', `/api/tax_invoice/${draft.id}/etax.xml`, { ...c.admin, 'accept-language': 'th' });
    expectError(res, 409, 'ETAX_INCOMPLETE');
    expect(res.json().error.message).toContain('ยังเป็นร่าง');
    const abbreviated = await ok(c.call('PATCH', `/api/tax_invoice/${draft.id}`, c.admin, { invoice_type: 'abbreviated' }));
    expectError(await c.call('GET', `/api/tax_invoice/${abbreviated.id}/etax.xml`, c.admin), 404, 'ETAX_NOT_SUPPORTED');
    expectError(await c.call('GET', `/api/tax_invoice/999999/etax.xml`, c.admin), 404, 'NOT_FOUND');
    expectError(await c.call('GET', `/api/tax_invoice/${invoice.id}/etax.xml?cancellation=yes`, c.admin), 400, 'INVALID_QUERY');
  });

  it('e-mails the PDF/A-3 as e-Tax, with the Revenue Department\'s address in cc; needs the email flag', async () => {
    const before = sink.messages.length;
    const res = await c.call('POST', `/api/tax_invoice/${invoice.id}/etax-email`, c.admin, { to: ['buyer@example.com'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ cc: [RD], signed: true, rd_email: RD });
    const msg = sink.messages[before]!;
    expect(msg.to.sort()).toEqual(['buyer@example.com', RD].sort());
    expect(msg.raw).toMatch(new RegExp(`^Cc: ${RD}`, 'mi'));
    const att = pdfAttachment(msg.raw)!;
    expect(att.filename).toMatch(/-etax\.pdf$/);
    const files = attachedFiles(att.bytes);
    expect(await verifyEtaxXml(Object.values(files)[0]!)).toBe(true);

    // a billing note (ETDA invoice, 380) is no tax document: the Revenue Department is not copied
    const bill = await c.draftBillingNote(customer, company);
    await act('billing_note', bill, 'issue');
    const billMail = await c.call('POST', `/api/billing_note/${bill}/etax-email`, c.admin, { to: ['buyer@example.com'] });
    expect(billMail.statusCode, billMail.body).toBe(200);
    expect(billMail.json().data).toMatchObject({ cc: [], signed: false, rd_email: null });
    expect(sink.messages[before + 1]!.to).toEqual(['buyer@example.com']);

    const printer = await c.staff('etax_no_email', { tax_invoice: { view: true, print: true } });
    expectError(await c.call('POST', `/api/tax_invoice/${invoice.id}/etax-email`, printer.headers, { to: ['buyer@example.com'] }), 403, 'FORBIDDEN');
    const quote = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-03', your_company_id: company, customer_id: customer, items: [{ product_id: await c.product(), qty: 1, price: 100 }] }), 201);
    expectError(await c.call('POST', `/api/quotation/${quote.id}/etax-email`, c.admin, { to: ['buyer@example.com'] }), 404, 'ETAX_NOT_SUPPORTED');
    expect(sink.messages.length).toBe(before + 2);
  });

  it.skipIf(!ETDA_DIR)('ETDA\'s XSD and schematron accept every XML the endpoints gave above', () => {
    // tax invoice, receipt, credit note, debit note, billing note, unsigned tax invoice, cancellation note
    const all = made.splice(0);
    expect(all.map((m) => m.message).sort()).toEqual(['CancellationNote', 'DebitCreditNote', 'DebitCreditNote', 'Invoice', 'Receipt', 'TaxInvoice', 'TaxInvoice', 'TaxInvoice']);
    for (const { what, xml, message } of all) {
      expect(xsdErrors(xml, message), `${what}\n${xml}`).toBe('');
      expect(schematronFailures(xml, message), what).toEqual([]);
    }
  });

  it('the status says whether a certificate is configured, never the certificate', async () => {
    const res = await c.call('GET', '/api/etax/status', c.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ certificate: { configured: true, subject: expect.stringContaining('TPT e-Tax test') }, rd_email: RD, email: true });
    expect(res.body).not.toMatch(/MII|BEGIN|secret-pw/);
    // a certificate that its password does not open is refused with the reason (at start: registerEtaxRoutes)
    await expect(loadSigningKey({ p12: selfSignedP12('right'), password: 'wrong' })).rejects.toThrow(/ETAX_P12_PASSWORD/);
    const nobody = await c.staff('etax_nobody', { tax_invoice: { view: true } });
    expectError(await c.call('GET', '/api/etax/status', nobody.headers), 403, 'FORBIDDEN');
  });
});
