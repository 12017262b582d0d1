/**
 * Issue 38 §9: a list asking for a column the role may not read (the warehouse
 * clerk's inventory list names the company, whose screen the clerk may not
 * view) answers the other columns instead of refusing the whole list. Filter
 * and sort on such a column stay refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, q, type Headers } from '../support/security-fixtures.ts';

describe.each(testDialects())('unreadable list columns on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let clerk: { headers: Headers };
  let inventoryId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    inventoryId = await c.inventory(await c.company());
    clerk = await c.staff('wh', { inventory: { view: true } });
  });
  afterAll(async () => t?.close());

  it('the list answers the columns the role may read, without the company', async () => {
    const fields = 'id,code,name,your_company_id,your_company_id.name_th';
    const res = await c.call('GET', `/api/inventory?fields=${encodeURIComponent(fields)}&meta=total_count`, clerk.headers);
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data.find((r: { id: number }) => r.id === inventoryId);
    expect(row).toBeDefined();
    expect(row.code).toMatch(/\S/);
    expect('your_company_id.name_th' in row).toBe(false);
    // the same list for the administrator carries the company name
    const admin = (await c.call('GET', `/api/inventory?fields=${encodeURIComponent(fields)}`, c.admin)).json().data.find((r: { id: number }) => r.id === inventoryId);
    expect(admin['your_company_id.name_th']).toMatch(/บริษัท/);
  });

  it('filtering or sorting on that column is still refused, and an unknown column still an error', async () => {
    expectError(await c.call('GET', `/api/inventory?filter=${q({ 'your_company_id.name_th': { _contains: 'บริษัท' } })}`, clerk.headers), 403, 'FIELD_FORBIDDEN');
    expectError(await c.call('GET', `/api/inventory?sort=your_company_id.name_th`, clerk.headers), 403, 'FIELD_FORBIDDEN');
    expectError(await c.call('GET', `/api/inventory?fields=code,nope`, clerk.headers), 400, 'UNKNOWN_FIELD');
  });
});
