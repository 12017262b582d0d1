/**
 * `npm run bench` (after the list benchmark): the report files over a large
 * stock ledger (BENCH_ROWS, 1,000,000 by default), on SQLite, and on
 * PostgreSQL when BENCH_PG_URL names a server (a database is made and dropped).
 * For every report: the first page's time (target < 1 s); for stock_balance_all
 * and backdate_stock_balance the median of BENCH_REPORT_RUNS runs (target < 100 ms).
 * BENCH_REPORTS=a,b limits the first pages to those reports; BENCH_SKIP_SQLITE=1 skips SQLite;
 * BENCH_PG_SEEDED=<url> measures a PostgreSQL database seeded before (tests/bench/seed-pg.ts) and keeps it.
 * The XLSX export runs in a server process of its own (export-server.mjs); BENCH_SERVER=build runs the
 * compiled server there (`npm run build` first), as `npm start` does.
 * A benchmark, not a test: it prints PASS/MISS per target and exits 0 either way.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
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
import { startNodeFlags } from './start-flags.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';

const ROWS = Math.round(Number((process.env.BENCH_ROWS ?? '1000000').replace(/_/g, '')));
const RUNS = Math.max(1, Number(process.env.BENCH_REPORT_RUNS ?? 15));
const PG = process.env.BENCH_PG_URL;
const log = (m: string) => console.log(`[reports-bench] ${m}`);
const PASSWORD = 'bench-password-1';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

async function measure(db: Database, dbUrl: string, registry: SchemaRegistry, label: string): Promise<void> {
  await prepareDatabase(db, registry);
  // month-end snapshots as the running server takes them (server/stock/stock-snapshots.ts)
  const t0 = performance.now();
  const taken = await takeMissingSnapshots(db, registry.held('stockMovements'), businessTodayNow());
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
  const only = process.env.BENCH_REPORTS?.split(',');
  // the general ledger of its busiest account: the receivable account's lines over the whole period
  const ledgerAccount = (await db.kysely.selectFrom('account').select('code').where('role', '=', 'receivable').executeTakeFirst())?.code;
  for (const r of reports.filter((x) => !only || only.includes(x.name))) {
    // the worst case: date ranges over the whole ledger, not the default month
    const extra = [
      r.parameters.find((p) => p.name === 'selectedInventory')?.required ? '&selectedInventory=1' : '',
      r.parameters.some((p) => p.name === 'date_from') ? '&date_from=2000-01-01' : '',
      r.parameters.find((p) => p.name === 'account')?.required ? `&account=${encodeURIComponent(String(ledgerAccount ?? ''))}` : '',
    ].join('');
    const url = `/api/report/${r.name}?limit=100${extra}`;
    await get(url); // warm the statement and page caches once
    const { ms, count } = await get(url);
    firstPages.push(`${r.name} ${ms.toFixed(0)} ms (${count} rows)${ms < 1000 ? '' : ' MISS'}`);
  }
  // the general ledger as an accountant asks for it: the same account over the ledger's last month (its opening
  // balance summed from journal_account_day), besides the whole ledger above
  if (ledgerAccount && (!only || only.includes('general_ledger'))) {
    const url = `/api/report/general_ledger?limit=100&account=${encodeURIComponent(String(ledgerAccount))}&date_from=2025-12-01&date_to=2025-12-31`;
    await get(url);
    const { ms, count } = await get(url);
    firstPages.push(`general_ledger, one month (2025-12) ${ms.toFixed(0)} ms (${count} rows)${ms < 1000 ? '' : ' MISS'}`);
  }
  log(`${label}: first page of every report (target < 1000 ms):\n  ${firstPages.join('\n  ')}`);
  for (const url of ['/api/report/stock_balance_all?limit=100', '/api/report/backdate_stock_balance?limit=100&as_of=2026-06-30', '/api/report/backdate_stock_balance?limit=100&as_of=2025-11-15']) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await get(url)).ms);
    const p50 = median(times);
    log(`${label}: ${url} p50 ${p50.toFixed(1)} ms over ${RUNS} runs: ${p50 < 100 ? 'PASS' : 'MISS'} (target < 100 ms)`);
  }
  await built.app.close();
  await exportMemory(dbUrl, label);
}

/**
 * A process's resident memory (Linux /proc), in bytes: all of it now, at its highest, and the
 * anonymous part now (heap and stacks: what the process itself holds, without the pages of files it
 * maps, which on SQLite include up to SQLITE_MMAP_MB of the database file, shared with the page cache).
 */
function residentOf(pid: number): { now: number; peak: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { now: kb('VmRSS'), peak: kb('VmHWM'), anon: kb('RssAnon') };
}

/**
 * An XLSX export of about 100,000 rows from the app alone in a child process
 * (export-server.mjs: the server's own memory, not this process's, which holds
 * the seeded data): its time, and the child's resident memory before, sampled
 * while the export streams, and at its highest.
 */
async function exportMemory(dbUrl: string, label: string): Promise<void> {
  const exportName = process.env.BENCH_EXPORT_REPORT ?? 'stock_on_hand_class_a';
  // with the node flags `npm start` gives the server (scripts/start.mjs passes its own to the server it
  // supervises); the compiled server when BENCH_SERVER=build, else the sources under tsx
  const flags = [...startNodeFlags(), ...(process.env.BENCH_SERVER === 'build' ? [] : ['--import', 'tsx'])];
  const child = spawn(process.execPath, [...flags, join(import.meta.dirname, 'export-server.mjs')], { env: { ...process.env, BENCH_DB: dbUrl }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => { out += b.toString(); const m = /listening (\d+)/.exec(out); if (m) resolve(Number(m[1])); });
      child.once('exit', (code) => reject(new Error(`export server exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const signin = await fetch(`${base}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }) });
    const headers = { authorization: `Bearer ${(await signin.json()).data.id_token}` };
    // one small report first, so the process is as warm as a server that has answered a request
    await (await fetch(`${base}/api/report/stock_balance_all?limit=100`, { headers })).arrayBuffer();
    const before = residentOf(child.pid!);
    let sampled = before.now;
    let anon = before.anon;
    const sampler = setInterval(() => { const r = residentOf(child.pid!); sampled = Math.max(sampled, r.now); anon = Math.max(anon, r.anon); }, 25);
    const t1 = performance.now();
    const res = await fetch(`${base}/api/report/${exportName}/export?format=xlsx`, { headers });
    if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    clearInterval(sampler);
    const { peak } = residentOf(child.pid!);
    const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
    log(`${label}: XLSX export of ${exportName} (${res.headers.get('x-total-count')} rows, ${(bytes / 1e6).toFixed(1)} MB) in ${((performance.now() - t1) / 1000).toFixed(1)} s; the server process (sampled every 25 ms): resident ${mb(before.now)} before, ${mb(sampled)} at most while streaming, ${mb(peak)} at its highest since it started; anonymous (heap, without mapped files) ${mb(before.anon)} before, ${mb(anon)} at most: ${Math.max(sampled, peak) < 200e6 ? 'PASS' : anon < 200e6 ? 'PASS for the anonymous memory, MISS for all resident' : 'MISS'} (target < 200 MB)`);
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_SQLITE !== '1') {
    const { file, registry } = await benchDatabase(ROWS, false, log);
    const db = openDatabase(file);
    try { await measure(db, file, registry, `sqlite ${ROWS.toLocaleString('en-US')} rows`); } finally { await db.close(); }
  }
  // BENCH_PG_SEEDED: a PostgreSQL database bulk-seeded before (tests/bench/seed-pg.ts), measured as it is and kept
  const seeded = process.env.BENCH_PG_SEEDED;
  if (seeded) {
    const pgDb = openDatabase(seeded);
    try { await measure(pgDb, seeded, new SchemaRegistry(readSchemaDir(SCHEMAS_DIR)), 'postgres (seeded before)'); } finally { await pgDb.close(); }
    return;
  }
  if (!PG) { log('BENCH_PG_URL not set: PostgreSQL not measured'); return; }
  const { createTestDatabase } = await import('../support/test-databases.ts');
  process.env.TEST_DATABASE_URL = PG;
  const pg = await createTestDatabase('postgres');
  const pgDb = openDatabase(pg.url);
  try {
    const reg = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
    await syncSchema(pgDb, reg.fileSchemas());
    log(`seeding ${ROWS.toLocaleString('en-US')} rows into PostgreSQL`);
    await bulkSeed(pgDb, reg, { size: ROWS, journalLines: ROWS, log: (m) => log(`seed: ${m}`) });
    await measure(pgDb, pg.url, reg, `postgres ${ROWS.toLocaleString('en-US')} rows`);
  } finally {
    await pgDb.close();
    await pg.drop();
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
