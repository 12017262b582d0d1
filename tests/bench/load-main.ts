/**
 * `npm run bench:load`: mixed traffic with autocannon against the production
 * build (node build/scripts/server-main.js, as `npm start` runs it), on the embedded
 * SQLite default and on two instances sharing PostgreSQL and Redis.
 * A benchmark, not a test: figures go to docs/performance.md; exits 0 whatever they are.
 *
 * Traffic per connection (one member of staff) cycles through 20 requests, the specification's
 * 70 / 20 / 10: 8 lists and 6 gets (master data and CRM; by default, LOAD_MIX=staff, the lists are
 * first pages with their totals, searches, filters and later pages: staffList); 2 creates and 2
 * updates (return reasons, working records with run numbers); and one
 * document posting in 2 requests: a 5-line draft (a goods receipt or an
 * internal transfer, alternating) and its `approve` action, which posts it
 * to the stock ledger.
 *
 * LOAD_SECONDS (60: each saturated run), LOAD_STAFF_SECONDS (120: each paced run; at 50 requests a second that
 * is 6,000 answers and about 300 postings, so a posting's p99 is its third slowest, not its slowest), LOAD_WARMUP (5: before a
 * saturated run), LOAD_STAFF_WARMUP (30: before a paced run, see STAFF_WARMUP), LOAD_CONNECTIONS ("50"), LOAD_PACE ("0,1": requests per second per
 * connection, 0 for none held back; each is measured and labelled, see PACES below),
 * LOAD_TARGETS ("sqlite,sqlite-workers,postgres"; sqlite-workers is SERVER_WORKERS=2 on SQLite with Redis), LOAD_DATABASE_URL (postgres://127.0.0.1:5432/test's server),
 * LOAD_REDIS_URL (redis://127.0.0.1:6379), LOAD_LOG_LEVEL (info, the production default; the
 * log goes to /dev/null unless LOAD_SERVER_LOG is set, so its cost is measured but not the disk's),
 * LOAD_CPU_PROF (a directory: the servers run with node --cpu-prof and write
 * their .cpuprofile there on exit; tests/bench/cpu-profile-summary.ts sums them up).
 *
 * LOAD_MIX=spec runs the earlier mix whose 8 lists were all the first page (limit=50, sorted by -id).
 * LOAD_MIX=issue runs the mix issue 14 measured its 1,792 req/s with instead (18 reads and 2
 * writes of master data and CRM per 20 requests, no documents), and LOAD_TARGETS=baseline,sqlite
 * with LOAD_BASELINE_DIR (a checkout of an earlier commit with its node_modules, e.g. `git
 * worktree add /tmp/base 92bd157 && (cd /tmp/base && npm ci)`) runs that server as it was
 * started then (tsx server/main.ts) beside today's, so "1.5x today's on this machine" is a
 * ratio measured in one run. A baseline that has scripts/build.mjs (issue 14's production build)
 * is built and run as `npm start` runs it, with either mix (it has documents).
 * LOAD_ROUNDS (1): with more, the SQLite set-ups chosen (baseline, sqlite, sqlite-workers) are started at
 * once and measured in turn, round after round, and each ratio to the baseline is given per round and
 * as their median: on a shared machine whose speed drifts over minutes, runs next to each other compare better.
 * LOAD_TARGETS=baseline-postgres,postgres with LOAD_BASELINE_DIR (a built baseline, as above) does the same for the
 * PostgreSQL pair: the baseline's two instances and today's, each on a database of its own, started at once and
 * measured in turn (LOAD_ROUNDS rounds), so a change to the write path is compared side by side.
 * LOAD_READY_SECONDS (120): how long each server may take to start (answer /api/ready) before the run gives up.
 * LOAD_NODE_FLAGS adds node options to every server it starts (e.g. "--max-semi-space-size=16").
 * LOAD_ACCEPT_ENCODING ("gzip, br", as browsers send it; empty: no header, so no answer is compressed).
 * LOAD_SERVER_LOG (a path prefix) keeps each server's log in PREFIX.PORT instead of discarding it,
 * so a slow or unanswered request can be looked up by what the server saw of it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { withDefaultUser } from '../../server/db/postgres/postgres-database.ts';
import { ROOT } from './bench-db.ts';

/** The built server's entry in a checkout: build/scripts/server-main.js since issue 46 (build/server/main.js before). */
const entryOf = (root: string) => (existsSync(join(root, 'build/scripts/server-main.js')) ? join(root, 'build/scripts/server-main.js') : join(root, 'build/server/main.js'));
import { startNodeFlags } from './start-flags.ts';
import { runStaff } from './staff-driver.ts';

const env = process.env;
const SATURATED_SECONDS = Number(env.LOAD_SECONDS ?? 60);
const STAFF_SECONDS = Number(env.LOAD_STAFF_SECONDS ?? 120);
const WARMUP = Number(env.LOAD_WARMUP ?? 5);
/** How long a server may take to answer /api/ready: a first start on an empty PostgreSQL database (tables, demo seed) on a loaded machine takes minutes. */
const READY_SECONDS = Number(env.LOAD_READY_SECONDS ?? 120);
/**
 * Paced runs start after 30 s of warm-up by default: in the half-minute after the fixture's bulk load (a database
 * created, 2,000 rows) PostgreSQL's writes had a tail that later minutes of the same servers did not (2026-11-27, the
 * server log of a staff run: past the warm-up's first second every answer over 40 ms was a write, and every posting
 * over 35 ms came 17–26 s after the fixture; most likely commits waiting on the disk while the system writes the load
 * back). A paced run measures the steady state people meet, not the bench's own set-up.
 */
const STAFF_WARMUP = Number(env.LOAD_STAFF_WARMUP ?? 30);
const CONNECTIONS = (env.LOAD_CONNECTIONS ?? '50').split(',').map(Number);
/**
 * Requests per second each member of staff sends; 0: none held back, autocannon's connections each send
 * their next request the moment the last is answered, which keeps the server saturated (a capacity test,
 * not people). Both are measured by default: the saturated figures, and staff at 1 request a second each
 * (50 staff: 50 requests a second, about ten times what the issue counts for tens of staff), each person
 * thinking a random, exponentially distributed while between an answer and the next click
 * (tests/bench/staff-driver.ts). Until 2026-11-27 the paced runs were autocannon's connectionRate, which
 * released every connection's request at the start of each second: bursts of 50 clicks in one instant.
 */
const PACES = (env.LOAD_PACE ?? '0,1').split(',').map(Number);
/** One measurement per pace and connection count, in this order, in every round. */
const SETTINGS = PACES.flatMap((pace) => CONNECTIONS.map((connections) => ({ pace, connections })));
const paceLabel = (pace: number) => (pace ? `staff at ${pace} request/s each, random think times` : 'saturated (no think time)');
const TARGETS = (env.LOAD_TARGETS ?? 'sqlite,sqlite-workers,postgres').split(',');
const PG_BASE = withDefaultUser(env.LOAD_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test');
const REDIS = env.LOAD_REDIS_URL ?? env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN_PASSWORD = 'Load-admin-Pass-1';
const JWT_SECRET = randomBytes(32).toString('hex');

const log = (m: string) => console.log(`[load] ${m}`);

interface Instance { url: string; child: ChildProcess }

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

/** A process and its children (the workers of SERVER_WORKERS), whose CPU is summed. */
function processTree(pid: number): number[] {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
  return [pid, ...children];
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => ok(port)); });
  });
}

/** The baseline server has no /api/ready: for it any answer means it listens (it seeds before listening). */
async function untilReady(url: string, child: ChildProcess, anyAnswer = false): Promise<void> {
  for (let i = 0; i < READY_SECONDS * 10; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/ready`).then((r) => r.ok || anyAnswer, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server was not ready within ${READY_SECONDS} s`);
}

async function startInstance(extraEnv: Record<string, string>, baseline?: string): Promise<Instance> {
  const port = await freePort();
  const prof = [...(env.LOAD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.LOAD_CPU_PROF}`] : []), ...(env.LOAD_NODE_FLAGS ? env.LOAD_NODE_FLAGS.split(' ') : [])];
  const built = baseline && existsSync(join(baseline, 'scripts/build.mjs'));
  const main = baseline && !built ? ['--import', 'tsx', join(baseline, 'server/main.ts')] : [entryOf(baseline ?? ROOT)];
  const logFd = env.LOAD_SERVER_LOG ? openSync(`${env.LOAD_SERVER_LOG}.${port}`, 'w') : undefined;
  const child = spawn(process.execPath, [...prof, ...(baseline && !built ? [] : startNodeFlags(baseline ?? ROOT)), ...main], {
    cwd: baseline ?? ROOT,
    env: { ...env, NODE_ENV: 'production', PORT: String(port), SEED: 'demo', ADMIN_PASSWORD, DEMO_PASSWORD: 'Load-demo-Pass-1', JWT_SECRET, LOG_LEVEL: env.LOAD_LOG_LEVEL ?? 'info', ...extraEnv },
    stdio: ['ignore', logFd ?? 'ignore', 'inherit'],
  });
  // the child has its own copy of the descriptor
  if (logFd !== undefined) closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  await untilReady(url, child, Boolean(baseline));
  return { url, child };
}

async function stop(i: Instance): Promise<void> {
  if (i.child.exitCode !== null) return;
  const exited = new Promise((r) => i.child.once('exit', r));
  i.child.kill('SIGTERM');
  await exited;
}

type Kind = 'list' | 'get' | 'create' | 'update' | 'draft' | 'post';
const KINDS: Kind[] = ['list', 'get', 'create', 'update', 'draft', 'post'];
const MIX = env.LOAD_MIX ?? 'staff';
if (MIX !== 'staff' && MIX !== 'spec' && MIX !== 'issue') throw new Error(`LOAD_MIX must be staff, spec or issue, not ${MIX}`);
const CYCLE: Kind[] = MIX !== 'issue' ? [
  'list', 'get', 'list', 'create', 'get', 'list', 'get', 'update', 'list', 'draft',
  'list', 'get', 'list', 'create', 'get', 'list', 'get', 'update', 'list', 'post',
] : [
  'list', 'get', 'list', 'create', 'get', 'list', 'get', 'list', 'get', 'list',
  'list', 'get', 'list', 'get', 'get', 'list', 'get', 'update', 'list', 'get',
];
/** Where a connection may start the cycle: anywhere that leaves every posting after its draft. */
const STARTS = CYCLE.map((_, from) => from).filter((from) => {
  const turn = [...CYCLE.slice(from), ...CYCLE.slice(0, from)];
  return turn.every((kind, i) => kind !== 'post' || turn.slice(0, i).includes('draft'));
});
const BASELINE_DIR = env.LOAD_BASELINE_DIR;
/**
 * What every request asks for: by default what browsers send. Empty: no header, autocannon's default
 * (the issue does not say which its 1,792 req/s were measured with); the server then sends every answer
 * uncompressed, as the pre-issue server (which compresses nothing) always does, so both send the same bytes.
 */
const ACCEPT_ENCODING = env.LOAD_ACCEPT_ENCODING ?? 'gzip, br';
const ROUNDS = Number(env.LOAD_ROUNDS ?? 1);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`LOAD_ROUNDS must be a whole number from 1, not ${env.LOAD_ROUNDS}`);
const READ_ENTITIES = ['product', 'customer', 'company', 'contact', 'return_reason', 'working_record'];
/** Rows of their own the staff mix's lists page through (working records and return reasons, made in bulk by the fixture). */
const BULK_ROWS = 1000;
/**
 * The lists staff open (LOAD_MIX=staff, issue 35): first pages with their total as the list screen asks
 * for them, searches, filters from the list screens' filter bars, and later pages, over the demo data and
 * the fixture's bulk rows. Not the same first page from every connection, which any cache by content would flatter.
 */
function staffList(entity: string, n: number): string {
  const page = 2 + (n % 15);
  const lists: Record<string, string[]> = {
    product: ['limit=50&meta=total_count', 'limit=50&search=%E0%B8%9F%E0%B8%B4%E0%B8%A5%E0%B9%8C%E0%B8%A1', `limit=50&filter=${encodeURIComponent('{"product_class":{"_eq":"class_a"}}')}`, 'limit=10&page=2&sort=code'],
    customer: ['limit=50&meta=total_count', 'limit=50&search=%E0%B8%AA%E0%B8%A2%E0%B8%B2%E0%B8%A1', 'limit=50&sort=name_th&search=co'],
    company: ['limit=50&meta=total_count', 'limit=50&search=a&sort=-id'],
    contact: ['limit=50&meta=total_count', 'limit=50&search=a'],
    return_reason: ['limit=50&meta=total_count', `limit=50&page=${page}&sort=-id`, 'limit=50&search=L&meta=total_count'],
    working_record: ['limit=50&meta=total_count&sort=-id', `limit=50&page=${page}&sort=-id`, `limit=50&filter=${encodeURIComponent('{"status":{"_eq":"open"}}')}&meta=total_count`, `limit=50&page=${page}&search=${encodeURIComponent('โหลด')}`],
  };
  const choices = lists[entity]!;
  return `/api/${entity}?${choices[n % choices.length]}`;
}

interface Fixture { token: string; ids: Record<string, number[]>; updatable: { entity: string; id: number }[]; stock: StockParties }
interface StockParties { inventory: number; other: number; products: number[] }

async function api(url: string, method: string, path: string, token: string | null, body?: unknown): Promise<any> {
  const res = await fetch(url + path, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json() as any;
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

let serial = 0;
const unique = () => `${process.pid.toString(36)}${(++serial).toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const createBody = (i: number): [string, unknown] => (i % 2
  ? ['return_reason', { code: `L${unique()}`.slice(0, 20), name_th: 'เหตุผลทดสอบโหลด', return_side: 'sales' }]
  : ['working_record', { subject: 'บันทึกทดสอบโหลด', status: 'open' }]);

let documents = 0;
/**
 * A 5-line draft: goods receipts (10 of each) and transfers to another inventory (1 of each, two
 * ledger legs per line, checked against stock on hand) alternate, so stock only grows. (The demo
 * site makes delivery orders from sales orders only, so a plain delivery would be refused.)
 */
const draftBody = (st: StockParties): [string, unknown] => {
  // a pair (receipt, then transfer) moves the same products, so a transfer finds what its receipt brought
  const lines = Array.from({ length: 5 }, (_, i) => st.products[(Math.floor(documents / 2) + i) % st.products.length]!);
  return documents++ % 2
    ? ['internal_product_transfer', { doc_date: '2026-11-21', from_inventory_id: st.inventory, to_inventory_id: st.other, items: lines.map((p) => ({ product_id: p, qty: 1 })) }]
    : ['goods_receipt', { doc_date: '2026-11-20', inventory_id: st.inventory, items: lines.map((p) => ({ product_id: p, qty: 10, price: 12 })) }];
};

async function fixture(url: string): Promise<Fixture> {
  const token = (await api(url, 'POST', '/api/auth/signin', null, { username: 'admin', password: ADMIN_PASSWORD })).data.id_token as string;
  // some rows of our own to update, and a check that every request kind of the mix succeeds
  const updatable: Fixture['updatable'] = [];
  for (let i = 0; i < 40; i++) {
    const [entity, body] = createBody(i);
    updatable.push({ entity, id: (await api(url, 'POST', `/api/${entity}`, token, body)).data.id as number });
  }
  if (MIX === 'staff') {
    // enough rows for later pages: a list of working records or return reasons several pages long
    for (let made = 0; made < BULK_ROWS; made += 500) {
      for (const n of [0, 1]) await api(url, 'POST', `/api/${createBody(n)[0]}/bulk`, token, { items: Array.from({ length: 500 }, (_, i) => createBody(n + 2 * i)[1]) });
    }
  }
  const ids: Record<string, number[]> = {};
  for (const e of READ_ENTITIES) ids[e] = ((await api(url, 'GET', `/api/${e}?limit=200&fields=id`, token)).data as { id: number }[]).map((r) => r.id);
  if (MIX === 'issue') return { token, ids, updatable, stock: { inventory: 0, other: 0, products: [] } };
  const inventories = ((await api(url, 'GET', '/api/inventory?limit=2&sort=id&fields=id', token)).data as { id: number }[]).map((r) => r.id);
  const stock: StockParties = { inventory: inventories[0]!, other: inventories[1]!, products: ids.product!.slice(0, 10) };
  // stock for the transfers to take from (a transfer may be approved before the receipt of its pair),
  // and a check that both postings succeed
  const opening = (await api(url, 'POST', '/api/goods_receipt', token, { doc_date: '2026-11-19', inventory_id: stock.inventory, items: stock.products.map((p) => ({ product_id: p, qty: 1000, price: 12 })) })).data.id as number;
  await api(url, 'POST', `/api/goods_receipt/${opening}/actions/approve`, token);
  documents = 0;
  for (let i = 0; i < 4; i++) {
    const [entity, body] = draftBody(stock);
    const draft = (await api(url, 'POST', `/api/${entity}`, token, body)).data.id as number;
    await api(url, 'POST', `/api/${entity}/${draft}/actions/approve`, token);
  }
  return { token, ids, updatable, stock };
}

interface KindStats { n: number; errors: number; lat: number[]; firstError?: string; unanswered: number }
interface Run { rps: number; errors: number; non2xx: number; timeouts: number; kinds: Record<Kind, KindStats>; requests: number; cpuMsPerRequest?: number; generatorCores?: number }

function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** One autocannon per instance, the connections split evenly (what a round-robin load balancer does), run together. */
async function measure(urls: string[], f: Fixture, connections: number, seconds: number, pace = 0): Promise<Run> {
  const kinds = Object.fromEntries(KINDS.map((k) => [k, { n: 0, errors: 0, lat: [] as number[], unanswered: 0 }])) as Record<Kind, KindStats>;
  let pick = 0;
  let listed = 0;
  const rnd = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  // Each connection goes through the cycle from a place of its own, drawn again for every cycle (autocannon
  // starts a connection's context afresh at the start of its list of requests). Until 2026-11-26 every
  // connection began at the first request and they went through the cycle nearly together, so each kind
  // came in bursts (the creates of a moment, then a run of lists), which flattered anything that caches by content.
  const requests = CYCLE.map(() => ({
    setupRequest: (req: { headers?: Record<string, string> }, ctx: Record<string, unknown>) => {
      if (ctx.i === undefined) { ctx.i = 0; ctx.from = rnd(STARTS); }
      const kind = CYCLE[((ctx.from as number) + (ctx.i as number)) % CYCLE.length]!;
      ctx.i = (ctx.i as number) + 1;
      // a connection's previous request that got no answer (autocannon timed it out and reconnected)
      if (ctx.waiting) kinds[ctx.kind as Kind].unanswered++;
      ctx.waiting = true;
      ctx.kind = kind;
      ctx.t0 = performance.now();
      const headers = { ...req.headers, authorization: `Bearer ${f.token}`, 'content-type': 'application/json', ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}) };
      const entity = READ_ENTITIES[pick++ % READ_ENTITIES.length]!;
      if (kind === 'list') return { method: 'GET', path: MIX === 'staff' ? staffList(entity, listed++) : `/api/${entity}?limit=50&sort=-id`, headers };
      if (kind === 'get') return { method: 'GET', path: `/api/${entity}/${rnd(f.ids[entity]!)}`, headers };
      if (kind === 'create') {
        const [e, body] = createBody(pick);
        return { method: 'POST', path: `/api/${e}`, headers, body: JSON.stringify(body) };
      }
      // the draft's answer is read for its id (uncompressed), and the connection's next 'post' approves it
      if (kind === 'draft') {
        const [e, body] = draftBody(f.stock);
        ctx.draftEntity = e;
        return { method: 'POST', path: `/api/${e}`, headers: { ...headers, 'accept-encoding': 'identity' }, body: JSON.stringify(body) };
      }
      if (kind === 'post') return { method: 'POST', path: `/api/${ctx.draftEntity as string}/${Number(ctx.draftId ?? 0)}/actions/approve`, headers, body: '{}' };
      const u = rnd(f.updatable);
      return { method: 'PATCH', path: `/api/${u.entity}/${u.id}`, headers, body: JSON.stringify(u.entity === 'return_reason' ? { name_th: `แก้ไข ${pick}` } : { subject: `แก้ไข ${pick}` }) };
    },
    onResponse: (status: number, body: string, ctx: Record<string, unknown>) => {
      ctx.waiting = false;
      if (ctx.kind === 'draft') {
        try { ctx.draftId = status < 300 ? (JSON.parse(body) as { data: { id: number } }).data.id : 0; } catch { ctx.draftId = 0; }
      }
      const k = kinds[ctx.kind as Kind];
      k.n++;
      if (status >= 300 && k.errors++ === 0) k.firstError = `${status} ${body.slice(0, 200)}`;
      k.lat.push(performance.now() - (ctx.t0 as number));
    },
  }));
  if (pace) {
    // people at `pace` requests a second each, clicking at independent moments (tests/bench/staff-driver.ts)
    const staff = await runStaff(urls, connections, seconds, pace, requests[0]!);
    return { ...staff, rps: staff.requests / seconds, kinds };
  }
  const per = Math.floor(connections / urls.length);
  const results: Result[] = await Promise.all(urls.map((url, i) => autocannon({ url, connections: per + (i < connections % urls.length ? 1 : 0), duration: seconds, timeout: 10, requests: requests as never })));
  const total = results.reduce((a, r) => a + r['2xx'] + r.non2xx, 0);
  return {
    rps: total / seconds, requests: total,
    errors: results.reduce((a, r) => a + r.errors, 0), non2xx: results.reduce((a, r) => a + r.non2xx, 0), timeouts: results.reduce((a, r) => a + r.timeouts, 0), kinds,
  };
}

function report(title: string, run: Run): string[] {
  const lines = [`${title}: ${Math.round(run.rps).toLocaleString('en-US')} req/s, ${run.requests.toLocaleString('en-US')} requests, errors ${run.errors}, non-2xx ${run.non2xx}, timeouts ${run.timeouts}; server CPU ${run.cpuMsPerRequest?.toFixed(2)} ms per request (≈ ${Math.round(1000 / (run.cpuMsPerRequest ?? 1)).toLocaleString('en-US')} req/s per fully available core); load average ${loadavg()[0]!.toFixed(1)}; the load generator used ${run.generatorCores?.toFixed(2)} of the ${cpus().length} cores`];
  const reads = [...run.kinds.list.lat, ...run.kinds.get.lat];
  lines.push(`  reads (list+get): p50 ${pct(reads, 50).toFixed(1)} ms, p99 ${pct(reads, 99).toFixed(1)} ms`);
  // issue 35's targets at 50 connections: read p99 < 50 ms, posting p99 < 100 ms, no errors
  const failed = run.errors + run.non2xx + run.timeouts + KINDS.reduce((a, k) => a + run.kinds[k].unanswered, 0);
  const mark = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  lines.push(`  targets: read p99 < 50 ms ${mark(pct(reads, 99) < 50)}, posting p99 < 100 ms ${mark(pct(run.kinds.post.lat, 99) < 100)}, 0 errors ${mark(failed === 0)}`);
  for (const k of KINDS) {
    const s = run.kinds[k];
    lines.push(`  ${k.padEnd(6)}: ${s.n.toLocaleString('en-US').padStart(9)} answers, ${s.errors} not 2xx, p50 ${pct(s.lat, 50).toFixed(1)} ms, p99 ${pct(s.lat, 99).toFixed(1)} ms${s.unanswered ? `, ${s.unanswered} timed out` : ''}`);
    if (s.firstError) lines.push(`          the first not 2xx: ${s.firstError}`);
  }
  return lines;
}

/** A started set-up with its fixture: each call of `run` measures every connection count once. */
async function scenarioOf(name: string, urls: string[], pids: number[]): Promise<{ run: (rps: number[]) => Promise<string[]> }> {
  const f = await fixture(urls[0]!);
  return {
    run: async (rps) => {
      const out: string[] = [];
      for (const { pace, connections: c } of SETTINGS) {
        const warmup = pace ? STAFF_WARMUP : WARMUP;
        if (warmup > 0) await measure(urls, f, c, warmup, pace);
        const seconds = pace ? STAFF_SECONDS : SATURATED_SECONDS;
        log(`${name}: ${c} connections, ${paceLabel(pace)}, for ${seconds} s…`);
        const cpu0 = pids.reduce((a, p) => a + cpuSeconds(p), 0);
        const own0 = process.cpuUsage();
        const wall0 = performance.now();
        const run = await measure(urls, f, c, seconds, pace);
        // autocannon runs in this process, on one core at most: when it nears 1.0 the generator, not the server, sets the pace
        const own = process.cpuUsage(own0);
        run.generatorCores = (own.user + own.system) / 1000 / (performance.now() - wall0);
        // what the servers themselves spent per request: on a shared machine, a figure that does not depend on what else runs
        run.cpuMsPerRequest = ((pids.reduce((a, p) => a + cpuSeconds(p), 0) - cpu0) * 1000) / run.requests;
        rps.push(run.rps);
        const lines = report(`${name}, ${c} connections, ${paceLabel(pace)}`, run);
        for (const l of lines) log(l);
        out.push(...lines);
      }
      return out;
    },
  };
}

async function scenario(name: string, urls: string[], pids: number[], rps: number[] = []): Promise<string[]> {
  return (await scenarioOf(name, urls, pids)).run(rps);
}

interface Started { key: 'baseline' | 'sqlite' | 'workers' | 'baseline-postgres' | 'postgres'; name: string; urls: string[]; pids: () => number[]; stop: () => Promise<void> }

function missingBaseline(): never {
  throw new Error('LOAD_TARGETS=baseline or baseline-postgres needs LOAD_BASELINE_DIR (see the comment at the top)');
}

/** Two instances (of today's build, or of the baseline's) sharing a PostgreSQL database of their own and Redis. */
async function startPostgres(baseline?: string): Promise<Started> {
  if (baseline && spawnSync(process.execPath, [join(baseline, 'scripts/build.mjs')], { cwd: baseline, stdio: 'inherit' }).status !== 0) throw new Error('the baseline did not build');
  const name = `bo_load_${Date.now().toString(36)}${baseline ? 'b' : ''}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  const dirs = [mkdtempSync(join(tmpdir(), 'bo-load-a-')), mkdtempSync(join(tmpdir(), 'bo-load-b-'))];
  const common = { DATABASE_URL: url.toString(), REDIS_URL: REDIS, REDIS_KEY: name, UPLOAD_DIR: dirs[0]! };
  const instances: Instance[] = [];
  const stopAll = async () => {
    for (const i of instances) await stop(i);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  try {
    for (const d of dirs) instances.push(await startInstance({ ...common, DATA_DIR: d }, baseline));
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    key: baseline ? 'baseline-postgres' : 'postgres', name: `${baseline ? `Baseline (${baseline}), ` : ''}PostgreSQL + Redis, 2 instances`,
    urls: instances.map((i) => i.url), pids: () => instances.map((i) => i.child.pid!), stop: stopAll,
  };
}

async function startBaseline(): Promise<Started> {
  if (!BASELINE_DIR) missingBaseline();
  const baselineBuilt = existsSync(join(BASELINE_DIR, 'scripts/build.mjs'));
  if (MIX !== 'issue' && !baselineBuilt) throw new Error('a baseline from before the production build has no documents: run it with LOAD_MIX=issue');
  if (baselineBuilt && spawnSync(process.execPath, [join(BASELINE_DIR, 'scripts/build.mjs')], { cwd: BASELINE_DIR, stdio: 'inherit' }).status !== 0) throw new Error('the baseline did not build');
  const dir = mkdtempSync(join(tmpdir(), 'bo-load-base-'));
  const one = await startInstance({ DATA_DIR: dir, DATABASE_URL: join(dir, 'load.sqlite'), REDIS_URL: '' }, BASELINE_DIR!);
  return { key: 'baseline', name: `Baseline (${BASELINE_DIR}), SQLite, 1 instance`, urls: [one.url], pids: () => [one.child.pid!], stop: async () => { await stop(one); rmSync(dir, { recursive: true, force: true }); } };
}

async function startSqlite(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'bo-load-'));
  const one = await startInstance({ DATA_DIR: dir, DATABASE_URL: join(dir, 'load.sqlite'), REDIS_URL: '' });
  return { key: 'sqlite', name: 'SQLite, 1 instance', urls: [one.url], pids: () => [one.child.pid!], stop: async () => { await stop(one); rmSync(dir, { recursive: true, force: true }); } };
}

/** SERVER_WORKERS=2: a primary accepting connections and two worker processes on one port and one SQLite file. */
async function startWorkers(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'bo-load-w-'));
  const one = await startInstance({ DATA_DIR: dir, DATABASE_URL: join(dir, 'load.sqlite'), REDIS_URL: REDIS, REDIS_KEY: `bo_load_w_${Date.now().toString(36)}`, SERVER_WORKERS: '2' });
  // ready answers once the first worker listens; the second starts after it
  for (let i = 0; i < 600 && processTree(one.child.pid!).length < 3; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 2000));
  return { key: 'workers', name: 'SQLite + Redis, 2 workers (SERVER_WORKERS=2)', urls: [one.url], pids: () => processTree(one.child.pid!), stop: async () => { await stop(one); rmSync(dir, { recursive: true, force: true }); } };
}

async function main(): Promise<void> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
  const all: string[] = [];
  const rps: Record<string, number[]> = {};
  const starts: [string, () => Promise<Started>][] = [['baseline', startBaseline], ['sqlite', startSqlite], ['sqlite-workers', startWorkers], ['baseline-postgres', () => startPostgres(BASELINE_DIR ?? missingBaseline())], ['postgres', () => startPostgres()]];
  // PostgreSQL is measured in the rounds when its baseline is too (side by side), else on its own after the SQLite set-ups
  const chosen = starts.filter(([t]) => TARGETS.includes(t) && (t !== 'postgres' || TARGETS.includes('baseline-postgres')));
  const inRounds = new Set(chosen.map(([t]) => t));
  if (ROUNDS > 1 || TARGETS.includes('baseline-postgres')) {
    // every set-up started at once and measured in turn, round after round: each ratio compares runs minutes apart, not a whole run apart
    const started: Started[] = [];
    try {
      for (const [, start] of chosen) started.push(await start());
      const scenarios = [];
      for (const st of started) scenarios.push({ key: st.key, scenario: await scenarioOf(st.name, st.urls, st.pids()) });
      for (let r = 1; r <= ROUNDS; r++) {
        log(`round ${r} of ${ROUNDS}`);
        for (const { key, scenario: sc } of scenarios) all.push(...(await sc.run((rps[key] ??= []))).map((l) => (l.startsWith(' ') ? l : `round ${r}: ${l}`)));
      }
    } finally {
      for (const st of started) await st.stop();
    }
  } else {
    for (const [, start] of chosen) {
      const st = await start();
      try {
        all.push(...(await scenario(st.name, st.urls, st.pids(), (rps[st.key] = []))));
      } finally {
        await st.stop();
      }
    }
  }
  if (TARGETS.includes('postgres') && !inRounds.has('postgres')) {
    const st = await startPostgres();
    try {
      all.push(...(await scenario(st.name, st.urls, st.pids(), (rps[st.key] = []))));
    } finally {
      await st.stop();
    }
  }
  for (const [key, name, base] of [['sqlite', 'one process', 'baseline'], ['workers', 'SERVER_WORKERS=2', 'baseline'], ['postgres', 'PostgreSQL, 2 instances', 'baseline-postgres']] as const) {
    const ours = rps[key];
    if (!rps[base] || !ours) continue;
    SETTINGS.forEach(({ pace, connections: c }, i) => {
      // rps arrays hold one figure per setting per round
      const ratios = ours.map((v, j) => (j % SETTINGS.length === i ? v / rps[base]![j]! : NaN)).filter((x) => !Number.isNaN(x));
      const median = [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)]!;
      all.push(`today's server (${name}) against its baseline, ${c} connections ${paceLabel(pace)}: ${ratios.length > 1 ? `median ${median.toFixed(2)}x over ${ratios.length} rounds (${ratios.map((x) => x.toFixed(2)).join(', ')})` : `${median.toFixed(2)}x the throughput (${Math.round(ours[i]!)} / ${Math.round(rps[base]![i]!)} req/s)`}`);
    });
  }
  console.log(`\n[load] mix: ${MIX}; accept-encoding: ${ACCEPT_ENCODING || '(none)'}\n${all.join('\n')}`);
}

main().catch((err) => {
  console.error('[load] could not run:', err);
  process.exit(1);
});
