/**
 * Importing rows is a schema key, not a feature of products: an entity whose file says `importable` gets
 * `POST /api/<entity>/import` and its job route with no code change; an entity without the key has none; a
 * job is followed only under the entity it imports into.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';
import { multipart } from '../support/multipart.ts';

describe.each(testDialects())('the importable key on %s', (dialect) => {
  const schemas = tempSchemasDir([], true);
  let t: TestApp;
  const upload = (entity: string, query: string, csv: string) => {
    const { payload, headers } = multipart('rows.csv', Buffer.from(csv));
    return t.app.inject({ method: 'POST', url: `/api/${entity}/import?${query}`, headers: { ...t.headers, ...headers }, payload });
  };
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });

  beforeAll(async () => {
    const file = join(schemas.dir, 'return_reason.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), importable: true }));
    t = await createTestApp(dialect, schemas.dir);
  }, 120_000);
  afterAll(async () => { await t?.close(); schemas.remove(); });

  const csv = ['code,ชื่อ (ไทย),return_side', 'IMP-1,ชำรุด,sales', 'IMP-2,ผิดรุ่น,purchase', 'IMP-3,,sales'].join('\n');

  it('an entity that says importable previews by its own fields and labels, and imports the good rows as a job', async () => {
    const dry = await upload('return_reason', 'mode=valid_rows&dry_run=true', csv);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data).toMatchObject({ total: 3, valid: 2, invalid: 1, would_import: 2 });
    expect(dry.json().data.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([[4, 'required']]);

    const started = await upload('return_reason', 'mode=valid_rows', csv);
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json().data.id as string;
    let job: Record<string, unknown> = started.json().data;
    for (let i = 0; i < 400 && job.state === 'importing'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await get(`/api/return_reason/import/${id}`)).json().data;
    }
    expect(job).toMatchObject({ state: 'done', imported: 2 });
    const rows = (await get(`/api/return_reason?filter=${encodeURIComponent(JSON.stringify({ code: { _starts_with: 'IMP-' } }))}`)).json().data;
    expect(rows.map((r: { code: string }) => r.code).sort()).toEqual(['IMP-1', 'IMP-2']);

    // the job belongs to return_reason: under another importable entity's path it is not known
    const elsewhere = await get(`/api/product/import/${id}`);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().error.code).toBe('NOT_FOUND');
  });

  it('an entity without the key has no import route', async () => {
    const res = await upload('customer', 'mode=valid_rows&dry_run=true', 'code,name_th\nC-1,ลูกค้า');
    expect(res.statusCode).toBe(404);
  });
});
