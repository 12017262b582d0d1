/**
 * Issue 11 §4: the site settings screen holds every server field of spec
 * section 9, explained in both languages; a change applies at once for every
 * user; `is_single_session` ends a user's other sessions at the next sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, PASSWORD } from '../support/security-fixtures.ts';
import { ensureSingletonRows } from '../../server/crud/singleton-rows.ts';
import { buildInstance, connectSocket, connected, createCrmApp, EventLog, listen, TEST_REDIS_URL, tokenOf, type Instance } from '../support/crm-fixtures.ts';

const SECTION_9 = [
  'stylesheet', 'tax_invoice', 'is_enable_manufactured_product', 'is_enable_product_pack', 'is_enable_product_expired',
  'is_enable_scan_with_note', 'is_enable_assets', 'is_enable_product_image', 'is_use_production_report', 'is_auto_scan_gr',
  'is_enable_auto_create_gr_in_po', 'is_auto_create_gr_in_po', 'is_po_allow_duplicate_product', 'is_select_multi_inventory_gr',
  'scan_with_oldest_expire_product', 'is_enable_scan_select_product', 'stock_balance_sub_booked_table_type',
  'is_enable_customer_ship_to_details', 'do_create_type', 'is_single_session', 'is_gr_display_only_receive_products_in_doc_and_scan',
  'is_do_display_only_send_products_in_doc_and_scan', 'barcode_unique_print_format',
  'product_dropdown_quotation', 'product_dropdown_so', 'product_dropdown_do', 'product_dropdown_po', 'product_dropdown_gr', 'product_dropdown_ipt',
];

describe.each(testDialects())('site settings on %s', (dialect) => {
  let one: TestApp;
  let two: Instance;
  let c: Client;
  let url2: string;
  const sockets: Socket[] = [];

  const setFlag = async (values: Record<string, unknown>) => {
    const res = await c.call('PATCH', '/api/setting_site/1', c.admin, values);
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    const redisKey = `test-site-${process.pid}-${Date.now().toString(36)}`;
    one = await createCrmApp(dialect, { redisUrl: TEST_REDIS_URL, redisKey });
    two = await buildInstance(one.testDb.url, { redisUrl: TEST_REDIS_URL, redisKey });
    c = new Client(one);
    // a fresh start makes the settings row from the schema defaults, as bootstrap does
    await ensureSingletonRows(one.service, one.registry);
    await listen(one.app);
    url2 = await listen(two.app);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await two?.close();
    await one?.close();
  });

  it('the form holds every section-9 field, each in a section and explained in Thai and English', async () => {
    const res = await c.call('GET', '/api/meta/entities/setting_site', c.admin);
    const entity = res.json().data.entity as { fields: Record<string, { help?: { th?: string; en?: string } }>; form: { sections: { fields: string[] }[] } };
    const inSections = entity.form.sections.flatMap((s) => s.fields);
    for (const name of SECTION_9) {
      expect(Object.keys(entity.fields), name).toContain(name);
      expect(inSections, name).toContain(name);
      expect(entity.fields[name]!.help?.th, name).toMatch(/[\u0E00-\u0E7F]/);
      expect(entity.fields[name]!.help?.en, name).toMatch(/[a-z]/);
    }
    // no field is shown twice or left out
    expect(new Set(inSections).size).toBe(inSections.length);
    expect(inSections.sort()).toEqual(Object.keys(entity.fields).sort());
  });

  it('a change reaches every open screen at once, also on the other instance, and the settings read answers the new value', async () => {
    const u = await c.staff('site_reader', { product: { view: true } });
    const s = connectSocket(url2, tokenOf(u.headers));
    sockets.push(s);
    const log = new EventLog<{ stamp: string | null }>(s, 'settings-changed');
    await connected(s);
    // as it connects, the socket hears the stamp of the stored settings, the same the settings read carries
    const hello = await log.next();
    const before = (await c.call('GET', '/api/settingsite/1', u.headers)).json();
    expect(hello.stamp).toBe(before.meta.stamp);
    let m = log.mark();
    await setFlag({ is_hide_notification: true });
    await log.next(() => true, 5000, m);
    const read = (await c.call('GET', '/api/settingsite/1', u.headers)).json();
    expect(read.data.is_hide_notification).toBe(1);
    expect(read.meta.stamp).not.toBe(before.meta.stamp);
    m = log.mark();
    await setFlag({ is_hide_notification: false });
    await log.next(() => true, 5000, m);
    const after = (await c.call('GET', '/api/settingsite/1', u.headers)).json();
    expect(after.data.is_hide_notification).toBe(0);
    // a screen connecting now is told the newest stamp: one that read the settings before the change reads again
    const late = connectSocket(url2, tokenOf(u.headers));
    sockets.push(late);
    const lateLog = new EventLog<{ stamp: string | null }>(late, 'settings-changed');
    await connected(late);
    expect((await lateLog.next()).stamp).toBe(after.meta.stamp);
    expect(after.meta.stamp).not.toBe(read.meta.stamp);
  });

  it('a role without the edit flag on settings changes none of them, and both routes read the same values', async () => {
    const viewer = await c.staff('site_viewer', { setting_site: { view: true } });
    const before = (await c.call('GET', '/api/setting_site/1', viewer.headers)).json().data;
    const res = await c.call('PATCH', '/api/setting_site/1', viewer.headers, { is_single_session: true, tax_invoice: 'abbreviated' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    const after = (await c.call('GET', '/api/setting_site/1', c.admin)).json().data;
    expect(after).toMatchObject({ is_single_session: before.is_single_session, tax_invoice: before.tax_invoice });
    // the spec's /api/settingsite/1 carries the same settings (flags as 0/1, as the spec writes them)
    const spec = (await c.call('GET', '/api/settingsite/1', viewer.headers)).json().data;
    for (const [k, v] of Object.entries(after)) {
      if (['created_at', 'updated_at', 'created_by', 'updated_by'].includes(k)) continue;
      expect(spec[k], k).toEqual(typeof v === 'boolean' ? Number(v) : v);
    }
  });

  it('with is_single_session off, two sign-ins of one user both stay valid', async () => {
    await setFlag({ is_single_session: false });
    const u = await c.staff('multi_sess', { product: { view: true } });
    const second = await c.signIn(u.username, PASSWORD);
    expect((await c.call('GET', '/api/product', u.headers)).statusCode).toBe(200);
    expect((await c.call('GET', '/api/product', second)).statusCode).toBe(200);
  });

  it('with is_single_session on, a new sign-in ends the other sessions: 401 at the next request and the socket is told at once', async () => {
    const u = await c.staff('single_sess', { product: { view: true } });
    const s = connectSocket(url2, tokenOf(u.headers));
    sockets.push(s);
    const ended = new EventLog(s, 'session-ended');
    await connected(s);
    await setFlag({ is_single_session: true });
    try {
      const second = await c.signIn(u.username, PASSWORD);
      await ended.next();
      const old = await c.call('GET', '/api/product', u.headers);
      expect(old.statusCode).toBe(401);
      expect(old.json().error.code).toBe('UNAUTHORIZED');
      expect((await c.call('GET', '/api/product', second)).statusCode).toBe(200);
      // the other instance refuses the old token too
      const there = await two.app.inject({ method: 'GET', url: '/api/product', headers: u.headers });
      expect(there.statusCode).toBe(401);
      // other users keep their sessions
      expect((await c.call('GET', '/api/product', c.admin)).statusCode).toBe(200);
    } finally {
      await setFlag({ is_single_session: false });
    }
  });
});
