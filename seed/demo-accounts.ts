import { randomBytes } from 'node:crypto';
import type { Database } from '../server/db/dialect-adapter.ts';
import type { EntityService } from '../server/crud/entity-service.ts';
import { createAccount } from '../server/auth/builtin-accounts.ts';
import { CUSTOMER_ROLE_ID } from '../engine/permissions/customer-role.ts';

/** Every demo account shares one password: DEMO_PASSWORD, or a random one printed once. */
/** Thai people with Thai roles, as the business would name them; usernames stay (tests sign in with them). */
export const DEMO_ACCOUNTS = [
  { username: 'warehouse', role: 'พนักงานคลังสินค้า', first: 'สมศักดิ์', last: 'มั่นคง', note: 'limited to inventory WH-BN' },
  { username: 'branch', role: 'นักบัญชีสาขา', first: 'วิภาวรรณ', last: 'ศรีสุข', note: 'limited to company TPT' },
  { username: 'viewer', role: 'ผู้ดูข้อมูล', first: 'ธนพล', last: 'ใจเย็น', note: 'view-only role, the books aside' },
  { username: 'accountant', role: 'นักบัญชี', first: 'อรุณี', last: 'บัญชีดี', note: 'the books: vouchers, ledgers, statements, VAT return, closing months' },
  { username: 'sales', role: 'ฝ่ายขาย', first: 'กมลชนก', last: 'พรหมมา', note: 'customers, prices and billing' },
  { username: 'cashier', role: 'แคชเชียร์', first: 'ปิยะพร', last: 'แสงทอง', note: 'sells at the register, opens and closes shifts; no edits or refunds' },
  { username: 'customer1', role: null, first: 'ศศิธร', last: 'รักงาน', note: 'portal account of customer C001' },
  { username: 'customer2', role: null, first: 'วิชัย', last: 'ทองดี', note: 'portal account of customer C002' },
] as const;

async function idOf(db: Database, table: string, column: string, value: string): Promise<number> {
  const row = await db.kysely.selectFrom(table).select('id').where(column, '=', value).executeTakeFirst();
  if (!row) throw new Error(`demo accounts: ${table} with ${column} = ${value} is missing from the demo seed`);
  return Number(row.id);
}

export async function seedDemoAccounts(db: Database, service: EntityService, password: string | undefined, hashLogN?: number): Promise<{ usernames: string[]; generatedPassword?: string }> {
  const pw = password ?? randomBytes(9).toString('base64url');
  const usernames: string[] = [];
  for (const a of DEMO_ACCOUNTS) {
    const body: Record<string, unknown> = { username: a.username, first_name: a.first, last_name: a.last, inventory_allow: [], branch_company: [] };
    if (a.role) body.role_id = await idOf(db, 'user_role', 'name', a.role);
    if (a.username === 'warehouse') body.inventory_allow = [await idOf(db, 'inventory', 'code', 'WH-BN')];
    if (a.username === 'branch') body.branch_company = [await idOf(db, 'your_company', 'code', 'TPT')];
    if (a.username.startsWith('customer')) {
      body.role_id = CUSTOMER_ROLE_ID;
      body.customer_id = await idOf(db, 'customer', 'code', a.username === 'customer1' ? 'C001' : 'C002');
    }
    await createAccount(db, service, body, pw, hashLogN);
    usernames.push(a.username);
  }
  return { usernames, generatedPassword: password ? undefined : pw };
}
