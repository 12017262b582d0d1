/**
 * Fixtures for tests/security: everything is built through the HTTP API as the
 * administrator (roles, user types, accounts, passwords, business rows), so the
 * security tests exercise the same paths a real client does.
 */
import { expect } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Headers = Record<string, string>;
export type Flags = Partial<Record<'view' | 'edit' | 'print' | 'export' | 'email', boolean>>;

/** The marker every stored password hash starts with; no response may ever contain it. */
export const HASH_MARKER = 'scrypt$';
export const PASSWORD = 'correct-horse-battery';

/** Wraps app.inject and keeps every response body, so a file can assert none leaked a password hash. */
export class Client {
  readonly bodies: string[] = [];
  private seq = 0;

  constructor(readonly t: TestApp) {}

  get admin(): Headers {
    return this.t.headers;
  }

  async call(method: Method, url: string, headers: Headers | null, payload?: unknown, extra: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
    const res = await this.t.app.inject({
      method, url, headers: headers ?? {}, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }), ...extra,
    } as InjectOptions);
    this.bodies.push(res.body);
    return res;
  }

  /** A unique suffix for codes and names inside one app. */
  next(prefix: string): string {
    return `${prefix}${++this.seq}`;
  }

  /** Creates a row as admin and answers its id; fails the test when the server refuses. */
  async make(entity: string, body: Record<string, unknown>): Promise<number> {
    const res = await this.call('POST', `/api/${entity}`, this.admin, body);
    expect(res.statusCode, `create ${entity}: ${res.body}`).toBe(201);
    return res.json().data.id as number;
  }

  async role(name: string, roleDetail: Record<string, Flags>): Promise<number> {
    return this.make('user_role', { name, role_detail: roleDetail, production_report_print_times: 1 });
  }

  async userType(name: string, roleId: number, opts: { inventory?: boolean; company?: boolean } = {}): Promise<number> {
    return this.make('user_type', {
      name, role_id: roleId, is_show_all_menu: false,
      is_limit_inventory_to_access: opts.inventory ?? false, is_limit_company_to_access: opts.company ?? false,
      type_detail: {}, display_detail: {},
    });
  }

  /** POST /api/user_account, then PUT /api/user_account/{id}/password as admin. */
  async user(username: string, body: Record<string, unknown>, password = PASSWORD): Promise<number> {
    const id = await this.make('user_account', { username, first_name: username, inventory_allow: [], branch_company: [], ...body });
    const res = await this.call('PUT', `/api/user_account/${id}/password`, this.admin, { password });
    expect(res.statusCode, `set password: ${res.body}`).toBe(200);
    return id;
  }

  async signInRaw(username: string, password: string, customerId?: number, remoteAddress?: string): Promise<LightMyRequestResponse> {
    const url = customerId === undefined ? '/api/auth/signin' : `/api/auth/signin/customer/${customerId}`;
    return this.call('POST', url, null, { username, password }, remoteAddress ? { remoteAddress } : {});
  }

  /** Signs in and answers the Authorization header of the new session. */
  async signIn(username: string, password = PASSWORD, customerId?: number): Promise<Headers> {
    const res = await this.signInRaw(username, password, customerId);
    expect(res.statusCode, `sign in ${username}: ${res.body}`).toBe(200);
    return bearer(res.json().data.id_token as string);
  }

  /** A staff account with its own role (and user type when restrictions are asked for), signed in. */
  async staff(name: string, roleDetail: Record<string, Flags>, opts: { inventory?: number[]; company?: number[] } = {}): Promise<{ id: number; roleId: number; typeId: number; headers: Headers; username: string }> {
    const username = this.next(`${name}_`);
    const roleId = await this.role(`${username} role`, roleDetail);
    const typeId = await this.userType(`${username} type`, roleId, { inventory: opts.inventory !== undefined, company: opts.company !== undefined });
    const id = await this.user(username, { role_id: roleId, user_type_id: typeId, inventory_allow: opts.inventory ?? [], branch_company: opts.company ?? [] });
    return { id, roleId, typeId, headers: await this.signIn(username), username };
  }

  /** A customer-portal account (role -1) for a customer, signed in through /api/auth/signin/customer/{id}. */
  async customerUser(customerId: number): Promise<{ id: number; headers: Headers; username: string }> {
    const username = this.next('cust_');
    const id = await this.user(username, { role_id: -1, customer_id: customerId });
    return { id, headers: await this.signIn(username, PASSWORD, customerId), username };
  }

  // ---- business rows, shaped like seed/demo/*.json ----

  async company(): Promise<number> {
    const code = this.next('CO');
    return this.make('your_company', { code, name_th: `บริษัท ${code} จำกัด`, name_en: `${code} Co., Ltd.`, tax_id: thaiTaxId(1055580000 + this.seq), branch_code: '00000', is_vat_registered: true });
  }

  async inventory(companyId: number | null): Promise<number> {
    const code = this.next('WH');
    return this.make('inventory', { code, name: `คลัง ${code}`, inventory_type: 'warehouse', your_company_id: companyId });
  }

  async product(extra: Record<string, unknown> = {}): Promise<number> {
    const code = this.next('P');
    return this.make('product', { code, name_th: `สินค้า ${code}`, product_class: 'class_a', unit: 'ม้วน', price: 360, vat_type: 'vat7', ...extra });
  }

  async customer(): Promise<number> {
    const code = this.next('C');
    return this.make('customer', { code, customer_type: 'juristic', name_th: `บริษัท ลูกค้า ${code} จำกัด`, tax_id: thaiTaxId(745540000 + this.seq), branch_code: '00000', credit_term_days: 30 });
  }

  billingNoteBody(customerId: number, companyId: number | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      bill_no: this.next('BN-'), bill_date: '2026-11-03', due_date: '2026-12-03', customer_id: customerId, your_company_id: companyId,
      status: 'draft', total_amount: 12500,
      items: [
        { ref_doc: 'IV2611-0011', ref_date: '2026-11-01', description: 'ค่าสินค้าตามใบกำกับภาษี', amount: 7500 },
        { ref_doc: 'IV2611-0012', ref_date: '2026-11-01', description: 'ค่าสินค้าตามใบกำกับภาษี', amount: 5000 },
      ],
      ...extra,
    };
  }

  /** A billing note as the customer meets it: issued (a portal customer never sees drafts, `access.customerStates`). */
  async billingNote(customerId: number, companyId: number | null): Promise<number> {
    const id = await this.draftBillingNote(customerId, companyId);
    const res = await this.call('POST', `/api/billing_note/${id}/actions/issue`, this.admin, {});
    expect(res.statusCode, `issue billing note: ${res.body}`).toBe(200);
    return id;
  }

  async draftBillingNote(customerId: number, companyId: number | null): Promise<number> {
    return this.make('billing_note', this.billingNoteBody(customerId, companyId));
  }

  stockMovementBody(productId: number, inventoryId: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { movement_date: '2026-11-03T09:00:00.000Z', product_id: productId, inventory_id: inventoryId, direction: 'in', movement_type: 'receipt', qty: 10, unit_cost: 285, ref_doc: this.next('GR-'), ...extra };
  }

  async stockMovement(productId: number, inventoryId: number): Promise<number> {
    return this.make('stock_movement', this.stockMovementBody(productId, inventoryId));
  }

  async location(inventoryId: number): Promise<number> {
    const code = this.next('LOC-');
    return this.make('product_location', { inventory_id: inventoryId, code, name: `ชั้น ${code}`, location_type: 'storage' });
  }

  /** Every body this client received, checked for the password-hash marker. */
  assertNoHashLeaked(): void {
    expect(this.bodies.length).toBeGreaterThan(0);
    const leaked = this.bodies.filter((b) => b.includes(HASH_MARKER));
    expect(leaked.map((b) => b.slice(0, 300))).toEqual([]);
  }
}

export function bearer(token: string): Headers {
  return { authorization: `Bearer ${token}` };
}

/** A valid 13-digit Thai tax id built from a 12-digit body (mod-11 check digit). */
export function thaiTaxId(n: number): string {
  const body = String(n).padStart(12, '0').slice(-12);
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (13 - i);
  return body + String((11 - (sum % 11)) % 10);
}

/** Ids of the rows a list/export answer holds. */
export function idsOf(res: LightMyRequestResponse): number[] {
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { id: number }[]).map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** The parsed rows of a CSV export (header row dropped), as objects keyed by the header. */
export function csvRows(res: LightMyRequestResponse): Record<string, string>[] {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  const lines = res.body.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
  const split = (l: string) => l.split(',').map((c) => c.replace(/^"|"$/g, ''));
  const header = split(lines[0]!);
  return lines.slice(1).map((l) => Object.fromEntries(split(l).map((v, i) => [header[i]!, v])));
}

export function q(filter: unknown): string {
  return encodeURIComponent(JSON.stringify(filter));
}

/** Asserts an error answer: status and catalogue code. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
