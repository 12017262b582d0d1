/**
 * Product import from CSV and XLSX: a dry run previews rows and lists every
 * error by row, column and reason (Thai and English); all_or_nothing writes
 * nothing when a row is wrong; valid_rows writes the good ones; a job reports
 * progress; 50,000 rows import in one go (the time is printed, not asserted).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError, type Headers } from '../support/security-fixtures.ts';
import { multipart } from '../support/multipart.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('product import on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
  });
  afterAll(async () => t?.close());

  const upload = (file: Buffer, name: string, query: string, as: Headers = c.admin) => {
    const { payload, headers } = multipart(name, file);
    return t.app.inject({ method: 'POST', url: `/api/product/import?${query}`, headers: { ...as, ...headers }, payload });
  };
  const finished = async (job: string): Promise<Row> => {
    for (let i = 0; i < 600; i++) {
      const j = await c.ok(c.call('GET', `/api/product/import/${job}`, c.admin));
      if (j.state !== 'importing') return j;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import did not finish');
  };
  const count = async (prefix: string) => ((await c.ok(c.call('GET', `/api/product?filter=${encodeURIComponent(JSON.stringify({ code: { _starts_with: prefix } }))}&limit=500`, c.admin))) as unknown as Row[]).length;

  const csv = (prefix: string) => Buffer.from([
    '\uFEFFcode,ชื่อสินค้า (ไทย),product_class,unit,price,vat_type,is_sellable',
    `${prefix}-1,"ฟิล์มยืด, 50 ซม.",class_a,ม้วน,125.50,vat7,ใช่`,
    `${prefix}-2,ถุงหูหิ้ว,สินค้าเกรด A,แพ็ก,12.345,vat7,1`,
    `${prefix}-3,,class_b,ม้วน,10,vat9,0`,
    `${prefix}-1,ซ้ำ,class_a,ม้วน,1,vat7,0`,
    `${prefix}-5,เทปกาว,class_b,ม้วน,35,zero,no`,
  ].join('\r\n'));

  it('a dry run previews: counts, columns by name or Thai label, and each error with row, column and reason; nothing is written', async () => {
    const res = await upload(csv('DRY'), 'products.csv', 'mode=valid_rows&dry_run=true');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ total: 5, valid: 2, invalid: 3, would_import: 2 });
    expect(d.columns[1]).toEqual({ header: 'ชื่อสินค้า (ไทย)', field: 'name_th' });
    expect(d.errors.map((e: Row) => [e.row, e.column, e.code])).toEqual([
      [3, 'price', 'x-scale'], [4, 'ชื่อสินค้า (ไทย)', 'required'], [4, 'vat_type', 'enum'], [5, 'code', 'repeated'],
    ]);
    expect(d.errors[3].reason_th).toBe('ซ้ำกับแถวที่ 2 ในไฟล์');
    expect(d.errors[0].reason_th).toMatch(/[\u0E00-\u0E7F]/);
    expect(d.sample.map((s: Row) => [s.row, s.code, s.name_th, s.price, s.is_sellable])).toEqual([[2, 'DRY-1', 'ฟิล์มยืด, 50 ซม.', 125.5, true], [6, 'DRY-5', 'เทปกาว', 35, false]]);
    expect(await count('DRY')).toBe(0);
    const strict = (await upload(csv('DRY'), 'products.csv', 'mode=all_or_nothing&dry_run=true')).json().data;
    expect(strict.would_import).toBe(0);
  });

  it('all_or_nothing imports nothing when a row is wrong; valid_rows imports the good rows; a code already in the table is an error', async () => {
    const strict = await upload(csv('AON'), 'products.csv', 'mode=all_or_nothing');
    expect(strict.statusCode, strict.body).toBe(202);
    const j1 = await finished(strict.json().data.id);
    expect(j1).toMatchObject({ state: 'failed', imported: 0, invalid: 3 });
    // the reason reads in the user's language too
    expect(j1.message_th).toContain('ไม่ได้นำเข้า');
    expect(await count('AON')).toBe(0);
    const loose = await upload(csv('AON'), 'products.csv', 'mode=valid_rows');
    const j2 = await finished(loose.json().data.id);
    expect(j2).toMatchObject({ state: 'done', imported: 2, progress: 100 });
    expect(await count('AON')).toBe(2);
    const p = ((await c.ok(c.call('GET', `/api/product?filter=${encodeURIComponent(JSON.stringify({ code: { _eq: 'AON-1' } }))}`, c.admin))) as unknown as Row[])[0]!;
    expect(p).toMatchObject({ name_th: 'ฟิล์มยืด, 50 ซม.', price: 125.5, product_class: 'class_a', is_sellable: true });
    const again = (await upload(csv('AON'), 'products.csv', 'mode=valid_rows&dry_run=true')).json().data;
    expect(again.errors.filter((e: Row) => e.code === 'unique').map((e: Row) => e.row)).toEqual([2, 6]);
  });

  it('reads XLSX; refuses a file that is neither, a bad mode, and a user who may not create products', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('products');
    ws.addRow(['code', 'name_th', 'product_class', 'unit', 'price', 'vat_type']);
    ws.addRow(['XL-1', 'กล่อง', 'class_a', 'ใบ', 5.25, 'vat7']);
    ws.addRow(['XL-2', 'ลัง', 'Class B', 'ใบ', 8, 'exempt']);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const job = (await upload(file, 'products.xlsx', 'mode=all_or_nothing')).json().data;
    expect(await finished(job.id)).toMatchObject({ state: 'done', imported: 2 });
    expect(await count('XL-')).toBe(2);
    expectError(await upload(Buffer.from([0, 1, 2, 3, 0, 0]), 'x.bin', 'dry_run=true'), 400, 'BAD_REQUEST');
    expectError(await upload(file, 'products.xlsx', 'mode=some'), 400, 'INVALID_QUERY');
    const viewer = (await c.staff('imp', { product: { view: true } })).headers;
    expectError(await upload(file, 'products.xlsx', 'dry_run=true', viewer), 403, 'FORBIDDEN');
    expectError(await c.call('GET', `/api/product/import/${job.id}`, viewer), 404, 'NOT_FOUND');
  });

  it('imports 50,000 rows in one transaction (time printed, not asserted)', async () => {
    const lines = ['code,name_th,product_class,unit,price,vat_type'];
    for (let i = 0; i < 50_000; i++) lines.push(`BULK-${i},สินค้า ${i},class_a,ชิ้น,${(i % 1000) + 0.25},vat7`);
    const started = Date.now();
    const res = await upload(Buffer.from(lines.join('\n')), 'bulk.csv', 'mode=all_or_nothing');
    expect(res.statusCode, res.body).toBe(202);
    const j = await finished(res.json().data.id);
    const seconds = (Date.now() - started) / 1000;
    console.log(`product import on ${dialect}: 50,000 rows in ${seconds.toFixed(1)} s`);
    expect(j).toMatchObject({ state: 'done', imported: 50_000, done: 50_000, progress: 100 });
    const listed = await c.call('GET', `/api/product?filter=${encodeURIComponent(JSON.stringify({ code: { _starts_with: 'BULK-' } }))}&limit=1&meta=total_count`, c.admin);
    expect(listed.json().meta.total_count).toBe(50_000);
  }, 120_000);

  // issue 37 §1: the product image follows is_enable_product_image in the import too
  it('an image column is passed over while product images are off, and taken (an uploaded file) while on', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
    const { payload, headers } = multipart('p.png', png);
    const up = await t.app.inject({ method: 'POST', url: '/api/file/upload/product', headers: { ...c.admin, ...headers }, payload });
    expect(up.statusCode, up.body).toBe(200);
    const fileId = up.json().data[0].id as string;
    const file = (prefix: string, image: string) => Buffer.from([
      'code,name_th,product_class,unit,price,vat_type,รูปสินค้า', `${prefix}-1,สินค้ามีรูป,class_a,ชิ้น,10,vat7,${image}`,
    ].join('\r\n'));
    await c.settings({ is_enable_product_image: false });
    const off = (await upload(file('IMGOFF', fileId), 'p.csv', 'mode=all_or_nothing&dry_run=true')).json().data;
    expect(off.columns[6]).toEqual({ header: 'รูปสินค้า', field: null, ignored: true });
    expect(off.error_count).toBe(0);
    expect(await finished((await upload(file('IMGOFF', fileId), 'p.csv', 'mode=all_or_nothing')).json().data.id)).toMatchObject({ state: 'done', imported: 1 });
    const [stored] = await c.ok(c.call('GET', `/api/product?filter=${encodeURIComponent('{"code":{"_eq":"IMGOFF-1"}}')}&fields=image`, c.admin)) as unknown as Row[];
    expect(stored!.image).toBeNull();

    await c.settings({ is_enable_product_image: true });
    const bad = (await upload(file('IMGBAD', 'no-such-file'), 'p.csv', 'mode=all_or_nothing&dry_run=true')).json().data;
    expect(bad.errors.map((e: Row) => [e.column, e.code])).toEqual([['รูปสินค้า', 'file']]);
    const on = await upload(file('IMGON', fileId), 'p.csv', 'mode=all_or_nothing');
    expect(on.statusCode, on.body).toBe(202);
    expect(await finished(on.json().data.id)).toMatchObject({ state: 'done', imported: 1 });
    const [taken] = await c.ok(c.call('GET', `/api/product?filter=${encodeURIComponent('{"code":{"_eq":"IMGON-1"}}')}&fields=image`, c.admin)) as unknown as Row[];
    expect(taken!.image).toBe(fileId);
  });
});
