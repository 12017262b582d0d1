/**
 * `npm run bench` (after the list benchmark): the report files over a large
 * stock ledger (BENCH_ROWS, 1,000,000 by default), on SQLite, and on
 * PostgreSQL when BENCH_PG_URL names a server (a database is made and dropped).
 * For every report: the first page's time (target < 1 s); for stock_balance_all
 * and backdate_stock_balance the median of BENCH_REPORT_RUNS runs (target < 100 ms).
 * A benchmark, not a test: it prints PASS/MISS per target and exits 0 either way.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../server/db/database-factory.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';
import { buildApp } from '../../server/app.ts';
import { readReportDir } from '../../server/reports/report-catalogue.ts';
import { syncSchema } from '../../server/db/schema-sync.ts';
import { bulkSeed } from '../../seed/bulk-seed.ts';
import { takeMissingSnapshots } from '../../server/stock/stock-snapshots.ts';
import { businessTodayNow } from '../../server/stock/business-days.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { benchDatabase, SCHEMAS_DIR } from './bench-db.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';

const ROWS = Math.round(Number((process.env.BENCH_ROWS ?? '1000000').replace(/_/g, '')));
const RUNS = Math.max(1, Number(process.env.BENCH_REPORT_RUNS ?? 15));
const PG = process.env.BENCH_PG_URL;
const log = (m: string) => console.log(`[reports-bench] ${m}`);
const PASSWORD = 'bench-password-1';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

async function measure(db: Database, registry: SchemaRegistry, label: string): Promise<void> {
  await prepareDatabase(db, registry);
  // month-end snapshots as the running server takes them (server/stock/stock-snapshots.ts)
  const t0 = performance.now();
  const taken = await takeMissingSnapshots(db, businessTodayNow());
  log(`${label}: ${taken} month-end snapshots taken in ${Math.round(performance.now() - t0)} ms`);
  const reports = readReportDir(join(SCHEMAS_DIR, 'reports'), registry);
  const built = await buildApp({ db, registry, jwtSecret: new TextEncoder().encode('bench-secret-bench-secret-bench-secret-00'), hashLogN: 10, uploadDir: mkdtempSync(join(tmpdir(), 'bench-uploads-')), reports });
  await ensureAdmin(db, built.service, PASSWORD, 10);
  const signin = await built.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: PASSWORD } });
  const headers = { authorization: `Bearer ${signin.json().data.id_token}` };
  const get = async (url: string) => {
    const t = performance.now();
    const res = await built.app.inject({ method: 'GET', url, headers });
    const ms = performance.now() - t;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return { ms, count: res.json().meta.total_count as number };
  };
  const firstPages: string[] = [];
  for (const r of reports) {
    // the worst case: date ranges over the whole ledger, not the default month
    const extra = [
      r.parameters.find((p) => p.name === 'selectedInventory')?.required ? '&selectedInventory=1' : '',
      r.parameters.some((p) => p.name === 'date_from') ? '&date_from=2000-01-01' : '',
    ].join('');
    const url = `/api/report/${r.name}?limit=100${extra}`;
    await get(url); // warm the statement and page caches once
    const { ms, count } = await get(url);
    firstPages.push(`${r.name} ${ms.toFixed(0)} ms (${count} rows)${ms < 1000 ? '' : ' MISS'}`);
  }
  log(`${label}: first page of every report (target < 1000 ms):\n  ${firstPages.join('\n  ')}`);
  for (const url of ['/api/report/stock_balance_all?limit=100', '/api/report/backdate_stock_balance?limit=100&as_of=2026-06-30', '/api/report/backdate_stock_balance?limit=100&as_of=2025-11-15']) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await get(url)).ms);
    const p50 = median(times);
    log(`${label}: ${url} p50 ${p50.toFixed(1)} ms over ${RUNS} runs: ${p50 < 100 ? 'PASS' : 'MISS'} (target < 100 ms)`);
  }
  // an XLSX export of about 100,000 rows: its time and the process's peak resident memory while it streams
  const exportName = process.env.BENCH_EXPORT_REPORT ?? 'stock_on_hand_class_a';
  let peak = process.memoryUsage().rss;
  const before = peak;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 25);
  const t1 = performance.now();
  const res = await built.app.inject({ method: 'GET', url: `/api/report/${exportName}/export?format=xlsx`, headers });
  clearInterval(sampler);
  log(`${label}: XLSX export of ${exportName} (${res.headers['x-total-count']} rows, ${(res.rawPayload.length / 1e6).toFixed(1)} MB) in ${((performance.now() - t1) / 1000).toFixed(1)} s; resident memory ${Math.round(before / 1e6)} MB before, ${Math.round(peak / 1e6)} MB at most: ${peak < 200e6 ? 'PASS' : 'MISS'} (target < 200 MB)`);
  await built.app.close();
}

async function main(): Promise<void> {
  const { file, registry } = await benchDatabase(ROWS, false, log);
  const db = openDatabase(file);
  try { await measure(db, registry, `sqlite ${ROWS.toLocaleString('en-US')} rows`); } finally { await db.close(); }
  if (!PG) { log('BENCH_PG_URL not set: PostgreSQL not measured'); return; }
  const { createTestDatabase } = await import('../support/test-databases.ts');
  process.env.TEST_DATABASE_URL = PG;
  const pg = await createTestDatabase('postgres');
  const pgDb = openDatabase(pg.url);
  try {
    const reg = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
    await syncSchema(pgDb, reg.fileSchemas());
    log(`seeding ${ROWS.toLocaleString('en-US')} rows into PostgreSQL`);
    await bulkSeed(pgDb, reg, { size: ROWS, log: (m) => log(`seed: ${m}`) });
    await measure(pgDb, reg, `postgres ${ROWS.toLocaleString('en-US')} rows`);
  } finally {
    await pgDb.close();
    await pg.drop();
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
