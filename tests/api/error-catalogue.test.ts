/**
 * Every code of ERROR_CATALOGUE is documented in docs/api.md and produced
 * through the API by a request below, with its catalogue status and the
 * error envelope. A new code fails here until it is documented and produced.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Response as InjectResponse } from 'light-my-request';
import { ERROR_CATALOGUE, type ErrorCode } from '../../engine/errors/error-catalogue.ts';
import { ERROR_TEXTS } from '../../engine/errors/error-texts.ts';
import { createTestApp, TEST_HASH_LOG_N, type TestApp } from '../support/test-app.ts';
import { createAccount } from '../../server/auth/builtin-accounts.ts';
import { systemContext } from '../../server/crud/access-policy.ts';
import { testDialects } from '../support/test-databases.ts';
import { label, tempSchemasDir } from '../support/temp-schemas.ts';
import { gzipSync } from 'node:zlib';
import { multipart } from '../support/multipart.ts';
import { DATA_SCHEMA_VERSION } from '../../server/admin/table-data.ts';
import { DOCUMENT_FIXTURES } from '../support/document-fixtures.ts';
import { thaiTaxId } from '../support/security-fixtures.ts';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import type { DialectName } from '../support/test-databases.ts';

/**
 * Codes produced only by the auth layer's own tests (this file still checks
 * they are documented). Empty now that the server signs in and checks roles:
 * every code is produced below.
 */
export const CODES_COVERED_BY_AUTH_TESTS: readonly ErrorCode[] = [];
/** Codes that need a dependency really failing (Redis stopped, a full disk): produced by tests/faults/. */
const CODES_COVERED_BY_FAULT_TESTS: readonly ErrorCode[] = ['IMPORT_PROGRESS_UNAVAILABLE', 'STORAGE_FULL', 'FILE_STORAGE_UNAVAILABLE'];

/** Codes only one dialect can produce: another process holding SQLite's write lock has no PostgreSQL twin. */
const ONLY_ON: Partial<Record<ErrorCode, DialectName>> = { DATABASE_BUSY: 'sqlite', DATABASE_TIMEOUT: 'postgres' };

const ALL_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
const apiDoc = readFileSync(resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');

const widget = {
  name: 'ec_widget', label: label('Widget'), kind: 'master', titleField: 'name', softDelete: true,
  fields: {
    code: { type: 'string', label: label('Code'), required: true, unique: true, maxLength: 20, pattern: '^[A-Z0-9-]+$' },
    name: { type: 'string', label: label('Name'), required: true },
    note: { type: 'text', label: label('Note'), maxLength: 20000 },
    score: { type: 'integer', label: label('Score'), readOnly: true },
  },
};
const entry = {
  name: 'ec_entry', label: label('Entry'), kind: 'ledger', titleField: 'ref',
  fields: { ref: { type: 'string', label: label('Ref'), required: true }, amount: { type: 'money', label: label('Amount'), required: true } },
};
// a hard-delete record referenced by another: deleting it answers IN_USE
const owner = {
  name: 'ec_owner', label: label('Owner'), kind: 'master', titleField: 'name',
  fields: { name: { type: 'string', label: label('Name'), required: true } },
};
const pet = {
  name: 'ec_pet', label: label('Pet'), kind: 'master', titleField: 'name',
  fields: {
    name: { type: 'string', label: label('Name'), required: true },
    owner_id: { type: 'link', entity: 'ec_owner', label: label('Owner'), required: true, onDelete: 'restrict' },
  },
};

describe('docs/api.md', () => {
  it.each(ALL_CODES)('documents %s with its status, when it happens and what to do', (code) => {
    const section = apiDoc.split(/^### /m).find((s) => s.startsWith(`${code}\n`));
    expect(section, `docs/api.md needs a "### ${code}" section`).toBeDefined();
    expect(section).toContain(`HTTP status: ${ERROR_CATALOGUE[code].status}`);
    expect(section).toMatch(/- When: \S/);
    expect(section).toMatch(/- What to do: \S/);
  });

  it('documents the response envelope and the list protocol', () => {
    expect(apiDoc).toContain('## Response envelope');
    expect(apiDoc).toContain('"success": false');
    expect(apiDoc).toContain('## List protocol');
    for (const op of ['_eq', '_between', '_icontains', '_starts_with']) expect(apiDoc).toContain(op);
  });
});

// a document with a workflow: posting locks it, and "reopen" is only possible from posted
const deal = {
  name: 'ec_deal', label: label('Deal'), kind: 'document', titleField: 'ref',
  fields: {
    ref: { type: 'string', label: label('Ref'), required: true },
    status: { type: 'enum', label: label('Status'), default: 'draft', options: ['draft', 'posted'].map((value) => ({ value, label: label(value) })) },
  },
  workflow: {
    field: 'status', initial: 'draft',
    states: [{ value: 'draft', label: label('Draft') }, { value: 'posted', label: label('Posted'), locked: true }],
    transitions: [
      { action: 'post', label: label('Post'), from: ['draft'], to: 'posted' },
      { action: 'reopen', label: label('Reopen'), from: ['posted'], to: 'draft' },
    ],
  },
};

describe.each(testDialects())('error codes through the API on %s', (dialect) => {
  const schemas = tempSchemasDir([widget, entry, owner, pet, deal, ...DOCUMENT_FIXTURES], true);
  let t: TestApp;
  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const call = (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...t.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as string }) });
  const ids: Record<string, number> = {};
  /** A signed-in user whose role may only view widgets and pets. */
  let clerk: Record<string, string>;

  beforeAll(async () => {
    // DATABASE_BUSY below waits this long for another process's write lock, not 5 s
    vi.stubEnv('SQLITE_BUSY_TIMEOUT_MS', '200');
    // DATABASE_TIMEOUT below waits this long for a table lock another connection holds, not 10 s
    vi.stubEnv('PG_LOCK_TIMEOUT_MS', '200');
    t = await createTestApp(dialect, schemas.dir);
    vi.unstubAllEnvs();
    const make = async (entity: string, body: unknown) => {
      const res = await call('POST', `/api/${entity}`, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as number;
    };
    ids.widget = await make('ec_widget', { code: 'W-1', name: 'first' });
    ids.entry = await make('ec_entry', { ref: 'R1', amount: 10.5 });
    ids.owner = await make('ec_owner', { name: 'Somchai' });
    ids.pet = await make('ec_pet', { name: 'Mali', owner_id: ids.owner });
    ids.draftDeal = await make('ec_deal', { ref: 'D1' });
    ids.postedDeal = await make('ec_deal', { ref: 'D2' });
    expect((await call('POST', `/api/ec_deal/${ids.postedDeal}/actions/post`)).statusCode).toBe(200);
    ids.order = await make('tf_order', { doc_no: 'SO-1', customer_name: 'ลูกค้า', items: [{ description: 'x', qty: 2, price: 10 }] });
    expect((await call('POST', `/api/tf_order/${ids.order}/actions/approve`)).statusCode).toBe(200);
    const role = await t.service.create('user_role', { name: 'Clerk', role_detail: { ec_widget: { view: true }, ec_pet: { view: true } } }, systemContext);
    await createAccount(t.db, t.service, { username: 'clerk', role_id: role.id, first_name: 'Clerk', inventory_allow: [], branch_company: [] }, 'clerk-password-123', TEST_HASH_LOG_N);
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'clerk', password: 'clerk-password-123' } });
    expect(signin.statusCode, signin.body).toBe(200);
    clerk = { authorization: `Bearer ${signin.json().data.id_token}` };
  });
  afterAll(async () => {
    await t?.close();
    schemas.remove();
  });

  /** One request per code that must answer with it. */
  const PRODUCERS: Partial<Record<ErrorCode, () => Promise<InjectResponse>>> = {
    BAD_REQUEST: () => call('POST', '/api/ec_widget', '{"code": "W-2", ', { 'content-type': 'application/json' }),
    VALIDATION_FAILED: () => call('POST', '/api/ec_widget', { code: 'W-2' }),
    UNKNOWN_FIELD: () => call('POST', '/api/ec_widget', { code: 'W-2', name: 'x', colour: 'red' }),
    READ_ONLY_FIELD: () => call('POST', '/api/ec_widget', { code: 'W-2', name: 'x', id: 99, created_at: '2024-01-01T00:00:00Z' }),
    INVALID_FILTER: () => call('GET', `/api/ec_widget?filter=${encodeURIComponent('{"code":{"_like":"W%"}}')}`),
    INVALID_QUERY: () => call('GET', '/api/ec_widget?limit=abc'),
    UNAUTHORIZED: () => t.app.inject({ method: 'GET', url: '/api/ec_widget' }),
    FORBIDDEN: () => call('POST', '/api/ec_widget', { code: 'W-6', name: 'not mine to make' }, clerk),
    FIELD_FORBIDDEN: () => call('GET', `/api/ec_pet?filter=${encodeURIComponent('{"owner_id.name":{"_eq":"Somchai"}}')}`, undefined, clerk),
    RATE_LIMITED: async () => {
      const attempt = () => t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'clerk', password: 'wrong-password' } });
      for (let i = 0; i < 5; i++) expect((await attempt()).statusCode).toBe(401);
      return attempt();
    },
    NOT_FOUND: () => call('GET', '/api/ec_widget/999999'),
    METHOD_NOT_ALLOWED: () => call('PATCH', `/api/ec_entry/${ids.entry}`, { amount: 11 }),
    CONFLICT: () => call('POST', '/api/ec_widget', { code: 'W-1', name: 'second' }),
    IN_USE: () => call('DELETE', `/api/ec_owner/${ids.owner}`),
    INVALID_TRANSITION: () => call('POST', `/api/ec_deal/${ids.draftDeal}/actions/reopen`),
    OVER_PROCESSED: async () => {
      const order = (await call('GET', `/api/tf_order/${ids.order}`)).json().data;
      return call('POST', '/api/tf_delivery/from/tf_order', { ids: [ids.order], lines: [{ source_line_id: order.items[0].id, qty: 3 }] });
    },
    HAS_DEPENDENTS: async () => {
      // a sales order with an issued billing note made from it cannot be cancelled
      const make = async (entity: string, body: unknown) => {
        const res = await call('POST', `/api/${entity}`, body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      const company = await make('your_company', { code: 'EC-CO', name_th: 'บริษัท อีซี จำกัด', tax_id: thaiTaxId(745548888), branch_code: '00000' });
      const customer = await make('customer', { code: 'EC-C9', customer_type: 'juristic', name_th: 'บริษัท ลูกค้า จำกัด', tax_id: thaiTaxId(745547777) });
      const product = await make('product', { code: 'EC-P9', name_th: 'สินค้า', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' });
      const so = await make('sales_order', { doc_date: '2026-11-20', your_company_id: company.id, customer_id: customer.id, vat_type: 'exclude', items: [{ product_id: product.id, qty: 1, price: 100 }] });
      expect((await call('POST', `/api/sales_order/${so.id}/actions/approve`)).statusCode).toBe(200);
      const bill = await call('POST', '/api/billing_note/from/sales_order', { ids: [so.id] });
      expect(bill.statusCode, bill.body).toBe(201);
      expect((await call('POST', `/api/billing_note/${bill.json().data.id}/actions/issue`)).statusCode).toBe(200);
      return call('POST', `/api/sales_order/${so.id}/actions/cancel`);
    },
    PERIOD_CLOSED: async () => {
      // a company whose books are closed to the end of October: an order dated in October is not approved
      const make = async (entity: string, body: unknown) => (await call('POST', `/api/${entity}`, body)).json().data.id as number;
      const company = await make('your_company', { code: 'EC-PC', name_th: 'บริษัท ปิดงวด จำกัด', tax_id: thaiTaxId(745542222), branch_code: '00000', books_closed_until: '2026-10-31' });
      const customer = await make('customer', { code: 'EC-C10', customer_type: 'juristic', name_th: 'บริษัท ลูกค้าปิดงวด จำกัด', tax_id: thaiTaxId(745541111) });
      const product = await make('product', { code: 'EC-P10', name_th: 'สินค้าปิดงวด', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' });
      const so = await make('sales_order', { doc_date: '2026-10-20', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 100 }] });
      return call('POST', `/api/sales_order/${so}/actions/approve`);
    },
    JOURNAL_UNBALANCED: async () => {
      // a voucher typed by hand whose debits and credits differ by 0.01
      const accounts = (await call('GET', '/api/account?limit=500')).json().data as Array<{ id: number; role: string | null }>;
      const role = (r: string) => accounts.find((a) => a.role === r)!.id;
      const co = (await call('POST', '/api/your_company', { code: 'EC-JV', name_th: 'บริษัท บัญชี จำกัด', tax_id: thaiTaxId(745549999), branch_code: '00000' })).json().data.id;
      const jv = await call('POST', '/api/journal_entry', { doc_date: '2026-11-20', your_company_id: co, items: [{ account_id: role('purchases'), debit: 100 }, { account_id: role('cash'), credit: 99.99 }] });
      expect(jv.statusCode, jv.body).toBe(201);
      return call('POST', `/api/journal_entry/${jv.json().data.id}/actions/post`);
    },
    JOURNAL_LINE_INVALID: async () => {
      // a line with both a debit and a credit
      const accounts = (await call('GET', '/api/account?limit=500')).json().data as Array<{ id: number; role: string | null }>;
      const role = (r: string) => accounts.find((a) => a.role === r)!.id;
      const co = (await call('POST', '/api/your_company', { code: 'EC-JL', name_th: 'บริษัท บัญชีสอง จำกัด', tax_id: thaiTaxId(745549988), branch_code: '00000' })).json().data.id;
      const jv = await call('POST', '/api/journal_entry', { doc_date: '2026-11-20', your_company_id: co, items: [{ account_id: role('purchases'), debit: 100, credit: 100 }, { account_id: role('cash'), credit: 0 }] });
      expect(jv.statusCode, jv.body).toBe(201);
      return call('POST', `/api/journal_entry/${jv.json().data.id}/actions/post`);
    },
    JOURNAL_AUTOMATIC: async () => {
      // the entry an issued tax invoice wrote is not edited
      const make = async (entity: string, body: unknown) => {
        const res = await call('POST', `/api/${entity}`, body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      const company = await make('your_company', { code: 'EC-JA', name_th: 'บริษัท รายการอัตโนมัติ จำกัด', tax_id: thaiTaxId(745549977), branch_code: '00000', is_vat_registered: true });
      const customer = await make('customer', { code: 'EC-C11', customer_type: 'juristic', name_th: 'บริษัท ลูกค้าบัญชี จำกัด', tax_id: thaiTaxId(745549966), branch_code: '00000' });
      const product = await make('product', { code: 'EC-P11', name_th: 'สินค้าบัญชี', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' });
      const so = await make('sales_order', { your_company_id: company.id, customer_id: customer.id, vat_type: 'exclude', items: [{ product_id: product.id, qty: 1, price: 100 }] });
      expect((await call('POST', `/api/sales_order/${so.id}/actions/approve`)).statusCode).toBe(200);
      const iv = (await call('POST', '/api/tax_invoice/from/sales_order', { ids: [so.id] })).json().data;
      expect((await call('POST', `/api/tax_invoice/${iv.id}/actions/issue`)).statusCode).toBe(200);
      const entry = (await call('GET', `/api/journal_entry?filter=${encodeURIComponent(JSON.stringify({ source_entity: { _eq: 'tax_invoice' }, source_id: { _eq: iv.id } }))}`)).json().data[0];
      return call('PATCH', `/api/journal_entry/${entry.id}`, { memo: 'changed' });
    },
    ACCOUNT_ROLE_MISSING: async () => {
      // the chart's sales account loses its role: a tax invoice has nowhere to post its sales (the role is given back after)
      const accounts = (await call('GET', '/api/account?limit=500')).json().data as Array<{ id: number; role: string | null }>;
      const sales = accounts.find((a) => a.role === 'sales')!.id;
      const make = async (entity: string, body: unknown) => {
        const res = await call('POST', `/api/${entity}`, body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      const company = await make('your_company', { code: 'EC-AR', name_th: 'บริษัท ไม่มีบัญชี จำกัด', tax_id: thaiTaxId(745549955), branch_code: '00000', is_vat_registered: true });
      const customer = await make('customer', { code: 'EC-C12', customer_type: 'juristic', name_th: 'บริษัท ลูกค้าผัง จำกัด', tax_id: thaiTaxId(745549944), branch_code: '00000' });
      const product = await make('product', { code: 'EC-P12', name_th: 'สินค้าผัง', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' });
      const so = await make('sales_order', { your_company_id: company.id, customer_id: customer.id, vat_type: 'exclude', items: [{ product_id: product.id, qty: 1, price: 100 }] });
      expect((await call('POST', `/api/sales_order/${so.id}/actions/approve`)).statusCode).toBe(200);
      const iv = (await call('POST', '/api/tax_invoice/from/sales_order', { ids: [so.id] })).json().data;
      expect((await call('PATCH', `/api/account/${sales}`, { role: null })).statusCode).toBe(200);
      const res = await call('POST', `/api/tax_invoice/${iv.id}/actions/issue`);
      expect((await call('PATCH', `/api/account/${sales}`, { role: 'sales' })).statusCode).toBe(200);
      return res;
    },
    YEAR_CLOSE_REFUSED: async () => {
      // a year closed twice: the second close finds the closing entry of the first
      const made = await call('POST', '/api/your_company', { code: 'EC-YE', name_th: 'บริษัท ปิดปี จำกัด', tax_id: thaiTaxId(745549933), branch_code: '00000' });
      expect(made.statusCode, made.body).toBe(201);
      const co = made.json().data.id;
      const first = await call('POST', '/api/ledger/close-year', { company: co, year: 2020 });
      expect(first.statusCode, first.body).toBe(200);
      return call('POST', '/api/ledger/close-year', { company: co, year: 2020 });
    },
    ALREADY_TAX_INVOICED: async () => {
      // a sale paid by a receipt that serves as its tax invoice: a tax invoice for the same order would be its second
      const make = async (entity: string, body: unknown) => {
        const res = await call('POST', `/api/${entity}`, body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      const act = async (entity: string, id: number, action: string) => expect((await call('POST', `/api/${entity}/${id}/actions/${action}`)).statusCode).toBe(200);
      const company = await make('your_company', { code: 'EC-TI', name_th: 'บริษัท ทีไอ จำกัด', tax_id: thaiTaxId(745546666), branch_code: '00000', is_vat_registered: true });
      const customer = await make('customer', { code: 'EC-C8', customer_type: 'juristic', name_th: 'บริษัท ลูกค้า จำกัด', tax_id: thaiTaxId(745545555), branch_code: '00000' });
      const product = await make('product', { code: 'EC-P8', name_th: 'สินค้า', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' });
      const so = await make('sales_order', { your_company_id: company.id, customer_id: customer.id, vat_type: 'exclude', items: [{ product_id: product.id, qty: 1, price: 100 }] });
      await act('sales_order', so.id, 'approve');
      const rc = await call('POST', '/api/receipt/from/sales_order', { ids: [so.id] });
      expect(rc.statusCode, rc.body).toBe(201);
      await act('receipt', rc.json().data.id, 'post');
      const iv = await call('POST', '/api/tax_invoice/from/sales_order', { ids: [so.id] });
      expect(iv.statusCode, iv.body).toBe(201);
      return call('POST', `/api/tax_invoice/${iv.json().data.id}/actions/issue`);
    },
    NOTE_WITHOUT_INVOICE: async () => {
      // a credit note typed by hand names no tax invoice
      const make = async (entity: string, body: unknown) => {
        const res = await call('POST', `/api/${entity}`, body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      const company = await make('your_company', { code: 'EC-CN', name_th: 'บริษัท ซีเอ็น จำกัด', tax_id: thaiTaxId(745544444), branch_code: '00000' });
      const customer = await make('customer', { code: 'EC-C7', customer_type: 'juristic', name_th: 'บริษัท ลูกค้า จำกัด', tax_id: thaiTaxId(745543333) });
      const reason = await make('return_reason', { code: 'EC-RR', name_th: 'สินค้าชำรุด', return_side: 'sales' });
      const cn = await make('credit_note', { your_company_id: company.id, customer_id: customer.id, return_reason_id: reason.id, items: [{ description: 'ลดหนี้', amount: 1000000 }] });
      return call('POST', `/api/credit_note/${cn.id}/actions/issue`);
    },
    INSUFFICIENT_STOCK: async () => {
      // taking out of an inventory that holds none of the product (the real stock schemas are in this folder)
      const make = async (entity: string, body: unknown) => (await call('POST', `/api/${entity}`, body)).json().data.id as number;
      const inventory = await make('inventory', { code: 'EC-WH', name: 'คลังทดสอบ' });
      const product = await make('product', { code: 'EC-P1', name_th: 'สินค้าทดสอบ', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' });
      return call('POST', '/api/stock_movement', { movement_date: '2026-11-20T09:00:00.000Z', product_id: product, inventory_id: inventory, direction: 'out', movement_type: 'adjustment', qty: 1 });
    },
    // production reports are switched off by default (is_use_production_report)
    FEATURE_DISABLED: () => call('POST', '/api/production_report', { doc_date: '2026-11-20', items: [] }),
    SCAN_REFUSED: async () => {
      const gr = (await call('POST', '/api/goods_receipt', { doc_date: '2026-11-20', items: [] })).json().data.id as number;
      return call('POST', `/api/goods_receipt/${gr}/scan`, { code: 'NO-SUCH-CODE' });
    },
    SCAN_OVER: async () => {
      const product = (await call('POST', '/api/product', { code: 'EC-P2', name_th: 'สินค้าสแกน', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' })).json().data.id as number;
      const gr = (await call('POST', '/api/goods_receipt', { doc_date: '2026-11-20', items: [{ product_id: product, qty: 1 }] })).json().data.id as number;
      expect((await call('POST', `/api/goods_receipt/${gr}/scan`, { code: 'EC-P2' })).statusCode).toBe(200);
      return call('POST', `/api/goods_receipt/${gr}/scan`, { code: 'EC-P2' });
    },
    DOCUMENT_LOCKED: () => call('PATCH', `/api/ec_deal/${ids.postedDeal}`, { ref: 'D2-changed' }),
    PAYLOAD_TOO_LARGE: () => call('POST', '/api/ec_widget', { code: 'W-3', name: 'big', note: 'x'.repeat(1024 * 1024 + 10) }),
    UNSUPPORTED_MEDIA_TYPE: () => call('POST', '/api/ec_widget', 'code=W-4&name=x', { 'content-type': 'text/plain' }),
    BACKUP_INVALID: () => {
      const { payload, headers } = multipart('not-a-backup.sqlite', Buffer.from('hello, not a backup'));
      return call('POST', '/api/db_manage/restore', payload, headers);
    },
    BACKUP_TOO_NEW: () => {
      const meta = { format: 'thai-backoffice-backup', format_version: 1, schema_version: DATA_SCHEMA_VERSION + 1, schema_hash: null, dialect: 'sqlite', created_at: '2030-01-01T00:00:00Z', counts: {} };
      const { payload, headers } = multipart('future.jsonl.gz', gzipSync(`${JSON.stringify(meta)}\n{"complete":true,"counts":{}}\n`));
      return call('POST', '/api/db_manage/restore', payload, headers);
    },
    WRITES_PAUSED: () => t.admin.gate.closedWhile('test', () => call('POST', '/api/ec_widget', { code: 'W-7', name: 'while restoring' })),
    MAIL_NOT_CONFIGURED: async () => {
      // the test app has no SMTP settings: emailing a document it may see answers 503
      const customer = await call('POST', '/api/customer', { code: 'EC-C1', customer_type: 'juristic', name_th: 'บริษัท ทดสอบ จำกัด', tax_id: thaiTaxId(745549999) });
      expect(customer.statusCode, customer.body).toBe(201);
      const note = await call('POST', '/api/billing_note', { bill_no: 'EC-BN-1', bill_date: '2026-11-18', customer_id: customer.json().data.id, total_amount: 100, items: [{ description: 'ค่าบริการ', amount: 100 }] });
      expect(note.statusCode, note.body).toBe(201);
      return call('POST', `/api/billing_note/${note.json().data.id}/email`, { to: 'buyer@example.com' });
    },
    // a document whose schema declares no document.etax; a draft tax invoice has no number yet
    ETAX_NOT_SUPPORTED: () => call('GET', `/api/ec_deal/${ids.postedDeal}/etax.xml`),
    ETAX_INCOMPLETE: async () => {
      const customer = await call('POST', '/api/customer', { code: 'EC-C3', customer_type: 'juristic', name_th: 'บริษัท ทดสอบสาม จำกัด', tax_id: thaiTaxId(745549997) });
      const company = await call('POST', '/api/your_company', { code: 'EC-YC', name_th: 'บริษัท ผู้ขาย จำกัด', tax_id: thaiTaxId(105558999), branch_code: '00000' });
      const product = await call('POST', '/api/product', { code: 'EC-P3', name_th: 'สินค้า e-Tax', product_class: 'class_a', unit: 'ชิ้น', price: 10, vat_type: 'vat7' });
      const draft = await call('POST', '/api/tax_invoice', { doc_date: '2026-11-18', your_company_id: company.json().data.id, customer_id: customer.json().data.id, items: [{ product_id: product.json().data.id, qty: 1, price: 10 }] });
      expect(draft.statusCode, draft.body).toBe(201);
      return call('GET', `/api/tax_invoice/${draft.json().data.id}/etax.xml`);
    },
    DATABASE_BUSY: async () => {
      // another process on the same file (a SERVER_WORKERS worker, a tool) holds the write lock
      const other = new BetterSqlite3(t.testDb.url);
      try {
        other.prepare('begin immediate').run();
        return await call('POST', '/api/ec_widget', { code: 'W-BUSY', name: 'while another process writes' });
      } finally {
        other.prepare('rollback').run();
        other.close();
      }
    },
    DATABASE_TIMEOUT: async () => {
      // another connection holds the table past PG_LOCK_TIMEOUT_MS (tests/ops/database-timeouts.test.ts has more)
      const other = new pg.Client({ connectionString: t.testDb.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('lock table ec_widget in access exclusive mode');
        return await call('POST', '/api/ec_widget', { code: 'W-SLOW', name: 'while another connection holds the table' });
      } finally {
        await other.query('rollback');
        await other.end();
      }
    },
    DATABASE_UNAVAILABLE: async () => {
      // what pg throws while PostgreSQL is down (tests/faults/database-restart.test.ts stops a real one)
      const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      const spies = [vi.spyOn(t.service, 'list')].map((s) => s.mockRejectedValue(down));
      try {
        return await call('GET', '/api/ec_widget');
      } finally {
        for (const s of spies) s.mockRestore();
      }
    },
    INTERNAL_ERROR: async () => {
      const spies = [vi.spyOn(t.service, 'list')].map((s) => s.mockRejectedValue(new Error('secret kaboom from the database driver')));
      try {
        return await call('GET', '/api/ec_widget');
      } finally {
        for (const s of spies) s.mockRestore();
      }
    },
  };

  it('every catalogue code has a producer here or is listed as covered by the auth tests', () => {
    const missing = ALL_CODES.filter((c) => !PRODUCERS[c] && !CODES_COVERED_BY_AUTH_TESTS.includes(c) && !CODES_COVERED_BY_FAULT_TESTS.includes(c));
    expect(Object.values(ONLY_ON).every((d) => testDialects().includes(d!))).toBe(true);
    expect(missing).toEqual([]);
  });

  it.each(ALL_CODES.filter((c) => !CODES_COVERED_BY_AUTH_TESTS.includes(c) && !CODES_COVERED_BY_FAULT_TESTS.includes(c) && (ONLY_ON[c] ?? dialect) === dialect))('%s: status and envelope', async (code) => {
    const res = await PRODUCERS[code]!();
    expect({ status: res.statusCode, code: res.json().error?.code }, res.body).toEqual({ status: ERROR_CATALOGUE[code].status, code });
    const body = res.json();
    expect(body.success).toBe(false);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.message.length).toBeGreaterThan(0);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it.runIf(dialect === 'sqlite')('DATABASE_BUSY says in Thai that nothing was saved, asks to retry, and the retry saves', async () => {
    const other = new BetterSqlite3(t.testDb.url);
    let res: InjectResponse;
    try {
      other.prepare('begin immediate').run();
      res = await call('POST', '/api/ec_widget', { code: 'W-BUSY2', name: 'busy' }, { 'accept-language': 'th' });
    } finally {
      other.prepare('rollback').run();
      other.close();
    }
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json().error).toMatchObject({ code: 'DATABASE_BUSY', message: expect.stringContaining('ยังไม่ได้บันทึก') });
    expect((await call('GET', `/api/ec_widget?filter=${encodeURIComponent('{"code":{"_eq":"W-BUSY2"}}')}`)).json().data).toEqual([]);
    expect((await call('POST', '/api/ec_widget', { code: 'W-BUSY2', name: 'busy' })).statusCode).toBe(201);
  });

  it('BAD_REQUEST also for a URL that cannot be decoded, in the same envelope', async () => {
    for (const url of ['/api/ec_widget/%E0%A4%A', '/%ZZ']) {
      const res = await call('GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ success: false, error: expect.objectContaining({ code: 'BAD_REQUEST' }) });
    }
  });

  it('VALIDATION_FAILED names each field with "is required"', async () => {
    const res = await call('POST', '/api/ec_widget', { code: 'W-2', name: '   ' });
    expect(res.json().error.details.fields).toEqual([{ field: 'name', code: 'required', message: 'is required' }]);
    const bad = await call('POST', '/api/ec_widget', { code: 'w 2', name: 'x' });
    expect(bad.json().error.details.fields).toEqual([{ field: 'code', code: 'pattern', message: 'is not in the expected format' }]);
  });

  it('UNKNOWN_FIELD also for filter, sort and fields', async () => {
    for (const q of [`filter=${encodeURIComponent('{"colour":{"_eq":1}}')}`, 'sort=colour', 'fields=code,colour']) {
      const res = await call('GET', `/api/ec_widget?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('UNKNOWN_FIELD');
    }
  });

  it('READ_ONLY_FIELD names id, created_at and readOnly fields, on create and update', async () => {
    const res = await PRODUCERS.READ_ONLY_FIELD!();
    expect(res.json().error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['created_at', 'id']);
    const patch = await call('PATCH', `/api/ec_widget/${ids.widget}`, { score: 5, updated_at: '2024-01-01T00:00:00Z' });
    expect(patch.json().error.code).toBe('READ_ONLY_FIELD');
    expect(patch.json().error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['score', 'updated_at']);
  });

  it('INVALID_QUERY for an unknown parameter, a repeated one and bad numbers', async () => {
    for (const q of ['colour=red', 'limit=10&limit=20', 'page=0', 'offset=-1', 'meta=everything', `search=${'x'.repeat(201)}`]) {
      const res = await call('GET', `/api/ec_widget?${q}`);
      expect(res.json().error?.code, q).toBe('INVALID_QUERY');
    }
  });

  it('NOT_FOUND for an unknown entity, a bad id and an archived record', async () => {
    expect((await call('GET', '/api/no_such_entity')).json().error.code).toBe('NOT_FOUND');
    expect((await call('GET', '/api/ec_widget/abc')).statusCode).toBe(404);
    const made = await call('POST', '/api/ec_widget', { code: 'W-GONE', name: 'gone' });
    const id = made.json().data.id;
    expect((await call('DELETE', `/api/ec_widget/${id}`)).statusCode).toBe(200);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await call(method, `/api/ec_widget/${id}`, method === 'PATCH' ? { name: 'back' } : undefined);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('METHOD_NOT_ALLOWED for every change to a ledger entry, which stays as it was', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await call(method, `/api/ec_entry/${ids.entry}`, method === 'DELETE' ? undefined : { ref: 'R9', amount: 1 });
      expect(res.statusCode, method).toBe(405);
      expect(res.json().error.code).toBe('METHOD_NOT_ALLOWED');
    }
    expect((await call('GET', `/api/ec_entry/${ids.entry}`)).json().data).toMatchObject({ ref: 'R1', amount: 10.5 });
  });

  it('CONFLICT names the field in details.fields, on create and on update', async () => {
    const res = await PRODUCERS.CONFLICT!();
    expect(res.json().error.details.fields).toEqual([{ field: 'code', code: 'unique', message: 'is already used by another record' }]);
    const other = (await call('POST', '/api/ec_widget', { code: 'W-5', name: 'other' })).json().data.id;
    const patch = await call('PATCH', `/api/ec_widget/${other}`, { code: 'W-1' });
    expect(patch.statusCode).toBe(409);
    expect(patch.json().error.details.fields).toEqual([{ field: 'code', code: 'unique', message: 'is already used by another record' }]);
  });

  it('IN_USE leaves both records in place', async () => {
    expect((await PRODUCERS.IN_USE!()).statusCode).toBe(409);
    expect((await call('GET', `/api/ec_owner/${ids.owner}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/ec_pet/${ids.pet}`)).json().data.owner_id).toBe(ids.owner);
  });

  it('PAYLOAD_TOO_LARGE and UNSUPPORTED_MEDIA_TYPE store nothing', async () => {
    await PRODUCERS.PAYLOAD_TOO_LARGE!();
    await PRODUCERS.UNSUPPORTED_MEDIA_TYPE!();
    const xml = await call('POST', '/api/ec_widget', '<widget/>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const list = await call('GET', `/api/ec_widget?filter=${encodeURIComponent('{"code":{"_in":["W-3","W-4"]}}')}`);
    expect(list.json().data).toEqual([]);
  });

  it('INTERNAL_ERROR hides the error text and the stack', async () => {
    const res = await PRODUCERS.INTERNAL_ERROR!();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: ERROR_TEXTS.INTERNAL_ERROR.en } });
    expect(res.body).not.toContain('kaboom');
    expect(res.body).not.toMatch(/stack|\s+at\s+\S+\s+\(|\.ts:\d+/);
    // the app keeps working afterwards
    expect((await call('GET', '/api/ec_widget')).statusCode).toBe(200);
  });
});
