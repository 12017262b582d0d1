/**
 * `npm run bench`: the generic endpoints against a hand-written Fastify +
 * better-sqlite3 route running the same SQL, over 1,000,000 stock_movement
 * rows, measured alternately with autocannon. A benchmark, not a test: it
 * prints PASS/MISS per target and exits 0 either way (1 only if it could not run).
 * docs/performance.md describes the scenarios, the targets and the env vars.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { openDatabase } from '../../server/db/database-factory.ts';
import { LEDGER } from '../../seed/bulk-seed.ts';
import { benchDatabase, benchFacts, BENCH_DIR, ROOT } from './bench-db.ts';
import { captureGenericSql, type CapturedQuery } from './capture-sql.ts';
import type { HandSql } from './bench-server.ts';
import { measureLeanServer } from './lean-server.ts';

const env = process.env;
function num(name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw.replace(/_/g, ''));
  if (!Number.isFinite(v) || v < min) throw new Error(`${name} must be a number of at least ${min}, not "${raw}"`);
  return v;
}

const SECONDS = num('BENCH_SECONDS', 10);
const WARMUP = num('BENCH_WARMUP', 3, 0);
const CONNECTIONS = num('BENCH_CONNECTIONS', 10);
const ROWS = Math.round(num('BENCH_ROWS', 1_000_000));
const ROUNDS = Math.round(num('BENCH_ROUNDS', 1));
const EXTRA_INDEX = env.BENCH_EXTRA_INDEX === '1';
/**
 * BENCH_GET_IDS=n: gets ask for ids among the first n only, so their pages stay in memory and the get measures the
 * server's path, not the disk (on a machine whose page cache does not hold the 1.9 GB file); 0 = the whole table.
 */
const GET_IDS = Math.round(num('BENCH_GET_IDS', 0, 0));
/** BENCH_CPU_PROF=1 profiles the generic server, =hand the hand-written one, =both both (node --cpu-prof). */
const CPU_PROF = env.BENCH_CPU_PROF ?? '';
const PAGE = 50;
/** Issue 49: a list page within 0.9x of the hand-written route, a get by id within 0.5x (on the way to 0.8x). */
const TARGET_RATIOS: Record<string, number> = { list: 0.9, get: 0.5 };
const TARGET_P99_MS = 30;

const HAND_AUTH = env.BENCH_HAND_AUTH !== '0';
const JWT_SECRET = randomBytes(48).toString('base64');

/**
 * Headers sent with every request, to both servers: the admin's bearer token,
 * which the generic server obtains by signing in (as tests/support/test-app.ts does).
 */
let headers: Record<string, string> = {};
function benchHeaders(): Record<string, string> {
  return headers;
}

const log = (m: string) => console.log(`[bench] ${m}`);

interface Server { name: 'generic' | 'hand'; port: number; headers: Record<string, string>; child: ChildProcess }

async function startServer(name: Server['name'], file: string, extraEnv: Record<string, string> = {}): Promise<Server> {
  const wanted = CPU_PROF === 'both' || (CPU_PROF === 'hand' ? name === 'hand' : CPU_PROF !== '' && CPU_PROF !== '0' && name === 'generic');
  const profile = wanted ? ['--cpu-prof', '--cpu-prof-dir', join(BENCH_DIR, 'profiles', name)] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...profile, join(ROOT, 'tests/bench/bench-server.ts'), name, file], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...env, BENCH_JWT_SECRET: JWT_SECRET, ...extraEnv },
  });
  const ready = await new Promise<{ port: number; headers: Record<string, string> }>((resolveReady, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      try { resolveReady(JSON.parse(line) as { port: number; headers: Record<string, string> }); } catch { reject(new Error(`${name} server said: ${line}`)); }
    });
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code} before listening`)));
  });
  return { name, ...ready, child };
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

interface Scenario { key: string; title: string; sql: string[]; path: () => string }

interface Measure { rps: number; p50: number; p90: number; p99: number; requests: number; bad: number; cpuUs: number }

/** The server process's CPU time so far (user + system, µs), from /proc: a request's cost that other load on the machine does not inflate. */
function cpuTimeUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  // after the command: state is field 3, utime and stime are fields 14 and 15 (clock ticks, 100 a second on Linux)
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function measure(server: Server, scenario: Scenario, seconds: number): Promise<Measure> {
  const cpu0 = cpuTimeUs(server.child.pid!);
  const r: Result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: benchHeaders(),
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: scenario.path() }) }],
  });
  const requests = r['2xx'] + r.non2xx;
  const cpuUs = (cpuTimeUs(server.child.pid!) - cpu0) / Math.max(requests, 1);
  return { rps: requests / r.duration, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, requests, bad: r.non2xx + r.errors + r.timeouts, cpuUs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function combine(ms: Measure[]): Measure {
  return {
    rps: median(ms.map((m) => m.rps)), p50: median(ms.map((m) => m.p50)), p90: median(ms.map((m) => m.p90)), p99: median(ms.map((m) => m.p99)),
    requests: ms.reduce((a, m) => a + m.requests, 0), bad: ms.reduce((a, m) => a + m.bad, 0), cpuUs: median(ms.map((m) => m.cpuUs)),
  };
}

async function fetchJson(port: number, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: benchHeaders() });
  return { status: res.status, body: await res.json() };
}

function expectShape(what: string, qs: CapturedQuery[], params: unknown[][]): void {
  const ok = qs.length === params.length && qs.every((q, i) => isDeepStrictEqual(q.parameters, params[i]));
  if (!ok) {
    throw new Error(`the generic ${what} no longer runs the queries the hand-written route assumes (${JSON.stringify(params)}); it ran:\n${qs.map((q) => `  ${q.sql}  ${JSON.stringify(q.parameters)}`).join('\n')}\nupdate tests/bench/bench-server.ts`);
  }
}

async function main(): Promise<void> {
  const t0 = performance.now();
  // BENCH_LEAN=0 leaves out the production server's cold start and memory (a build and two starts)
  const lean = env.BENCH_LEAN === '0' ? [] : await measureLeanServer(log);
  if (env.BENCH_ONLY === 'server') {
    console.log(lean.join('\n'));
    return;
  }
  log(`${ROWS.toLocaleString('en-US')} rows, ${CONNECTIONS} connections, ${SECONDS} s per measurement (+${WARMUP} s warm-up), ${ROUNDS} round(s)${HAND_AUTH ? "" : ", hand-written route WITHOUT token check"}${EXTRA_INDEX ? ', with the extra (product_id, movement_date) index' : ''}`);
  const { file, registry } = await benchDatabase(ROWS, EXTRA_INDEX, log);
  const facts = benchFacts(file);
  log(`list filter: product_id = ${facts.productId} (${facts.productRows.toLocaleString('en-US')} of ${facts.maxId.toLocaleString('en-US')} rows; median of ${facts.products} products)`);

  const listQuery = { filter: JSON.stringify({ product_id: { _eq: facts.productId } }), sort: '-movement_date', limit: String(PAGE), meta: 'total_count' };
  const listPath = `/api/${LEDGER}?${new URLSearchParams(listQuery).toString()}`;
  const sampleId = Math.ceil(facts.maxId / 2);

  // the exact SQL the generic path runs, compiled by the same Kysely compiler
  const db = openDatabase(file);
  let captured: Awaited<ReturnType<typeof captureGenericSql>>;
  try {
    captured = await captureGenericSql(db, registry, LEDGER, listQuery, sampleId);
  } finally {
    await db.close();
  }
  expectShape('list', captured.list, [[facts.productId], [facts.productId]]);
  expectShape('get-by-id', captured.get, [[sampleId]]);
  // the generic list writes its limit and offset into the SQL (list-statement-cache.ts); the hand-written one binds them
  const pageAt = / limit -?\d+ offset -?\d+$/;
  if (!pageAt.test(captured.list[0]!.sql)) throw new Error(`the generic list's SQL no longer ends in "limit n offset m": ${captured.list[0]!.sql}\nupdate tests/bench/bench-main.ts`);
  const handSql: HandSql = { listRows: captured.list[0]!.sql.replace(pageAt, ' limit ? offset ?'), listCount: captured.list[1]!.sql, get: captured.get[0]!.sql };

  const servers: Server[] = [];
  try {
    servers.push(await startServer('generic', file));
    headers = servers[0]!.headers;
    servers.push(await startServer('hand', file, { BENCH_SQL: JSON.stringify(handSql) }));
    const [generic, hand] = servers as [Server, Server];

    // honesty check: both servers answer byte-for-byte the same JSON
    const ids = [1, sampleId, facts.maxId];
    for (const path of [listPath, ...ids.map((id) => `/api/${LEDGER}/${id}`)]) {
      const [g, h] = [await fetchJson(generic.port, path), await fetchJson(hand.port, path)];
      if (g.status !== 200 || !isDeepStrictEqual(g, h)) {
        throw new Error(`the two servers disagree on ${path}:\n generic ${g.status} ${JSON.stringify(g.body).slice(0, 400)}\n hand    ${h.status} ${JSON.stringify(h.body).slice(0, 400)}`);
      }
    }
    log('both servers return identical JSON for the list and for get-by-id');

    const scenarios: Scenario[] = [
      { key: 'list', title: `list: product_id _eq, sort -movement_date, limit ${PAGE}, meta=total_count`, sql: [handSql.listRows, handSql.listCount], path: () => listPath },
      { key: 'get', title: `get-by-id: random ids ${GET_IDS ? `among the first ${GET_IDS.toLocaleString('en-US')}` : 'across the table'}`, sql: [handSql.get], path: () => `/api/${LEDGER}/${1 + Math.floor(Math.random() * Math.min(GET_IDS || facts.maxId, facts.maxId))}` },
    ];

    const only = env.BENCH_ONLY;
    if (only && !scenarios.some((s) => s.key === only)) throw new Error(`BENCH_ONLY must be server or one of ${scenarios.map((s) => s.key).join(', ')}`);
    if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => s.key === only));
    const results = new Map<string, { generic: Measure[]; hand: Measure[] }>();
    for (const sc of scenarios) {
      if (WARMUP > 0) for (const s of [generic, hand]) await measure(s, sc, WARMUP);
      const bucket = { generic: [] as Measure[], hand: [] as Measure[] };
      for (let round = 0; round < ROUNDS; round++) {
        // alternate which goes first, so slow drift (page cache, thermal) does not favour one
        const order = round % 2 === 0 ? [generic, hand] : [hand, generic];
        for (const s of order) {
          const m = await measure(s, sc, SECONDS);
          bucket[s.name].push(m);
          log(`${sc.key} ${s.name.padEnd(7)} round ${round + 1}: ${m.rps.toFixed(0)} req/s, ${m.cpuUs.toFixed(0)} µs CPU/request, p50 ${m.p50} ms, p99 ${m.p99} ms${m.bad ? `, ${m.bad} failed` : ''}`);
        }
      }
      results.set(sc.key, bucket);
    }

    // report
    const lines: string[] = [];
    const pad = (s: string, n: number) => s.padEnd(n);
    lines.push('', `== stock_movement, ${facts.maxId.toLocaleString('en-US')} rows, SQLite, ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} per server ==`);
    const verdicts: string[] = [];
    for (const sc of scenarios) {
      const b = results.get(sc.key)!;
      const g = combine(b.generic);
      const h = combine(b.hand);
      const ratio = g.rps / h.rps;
      lines.push('', sc.title);
      for (const q of sc.sql) lines.push(`  SQL: ${q}`);
      lines.push(`  ${pad('', 14)}${pad('req/s', 10)}${pad('CPU µs/req', 12)}${pad('p50 ms', 9)}${pad('p90 ms', 9)}${pad('p99 ms', 9)}requests`);
      for (const [name, m] of [['generic', g], ['hand-written', h]] as const) {
        lines.push(`  ${pad(name, 14)}${pad(m.rps.toFixed(0), 10)}${pad(m.cpuUs.toFixed(0), 12)}${pad(String(m.p50), 9)}${pad(String(m.p90), 9)}${pad(String(m.p99), 9)}${m.requests}${m.bad ? `  (${m.bad} non-2xx/errors!)` : ''}`);
      }
      const TARGET_RATIO = TARGET_RATIOS[sc.key]!;
      const ratioOk = ratio >= TARGET_RATIO;
      const p99Ok = g.p99 < TARGET_P99_MS;
      lines.push(`  ratio generic/hand-written: ${ratio.toFixed(2)}  (target >= ${TARGET_RATIO}: ${ratioOk ? 'PASS' : 'MISS'})`);
      // on a loaded machine req/s follow the CPU each process is given; the CPU a request costs does not
      lines.push(`  CPU per request, hand-written/generic: ${(h.cpuUs / g.cpuUs).toFixed(2)}  (the same ratio measured by cost, not by throughput)`);
      lines.push(`  generic p99: ${g.p99} ms  (target < ${TARGET_P99_MS} ms: ${p99Ok ? 'PASS' : 'MISS'})`);
      verdicts.push(`${sc.key}: ratio ${ratioOk ? 'PASS' : 'MISS'}, p99 ${p99Ok ? 'PASS' : 'MISS'}`);
      if (g.bad || h.bad) verdicts.push(`${sc.key}: some requests failed, the figures above are not trustworthy`);
    }
    lines.push(...lean);
    lines.push('', `summary: ${verdicts.join('; ')}`, `total time ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    console.log(lines.join('\n'));
  } finally {
    for (const s of servers) await stopServer(s);
    if (CPU_PROF && CPU_PROF !== '0') log(`CPU profiles written to ${join(BENCH_DIR, 'profiles')}/<server>/ (the largest file is the main thread)`);
  }
}

main().catch((err) => {
  console.error(`[bench] failed: ${(err as Error).message}`);
  process.exit(1);
});
