import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
/**
 * One benchmark server, run as a child process of bench-main.ts so that
 * autocannon and the server do not share an event loop:
 *   generic <file>  the real app (buildApp) over the SQLite file
 *   hand    <file>  a hand-written Fastify + better-sqlite3 route running the
 *                   SQL the generic path runs (BENCH_SQL), prepared once
 * Both get the JWT secret in BENCH_JWT_SECRET. The generic server signs in as
 * the admin (as tests/support/test-app.ts does) and prints one JSON line
 * {"port": n, "headers": {...}} when listening; the caller sends those headers
 * to both servers. Exits on SIGTERM (so --cpu-prof can write its profile).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import BetterSqlite3 from 'better-sqlite3';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { applySqlitePragmas } from '../../server/db/sqlite/sqlite-database.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';
import { buildApp } from '../../server/app.ts';
import { jwtVerify } from 'jose';
import { createSecretKey } from 'node:crypto';
import { LEDGER } from '../../seed/bulk-seed.ts';
import { SCHEMAS_DIR } from './bench-db.ts';

export interface HandSql { listRows: string; listCount: string; get: string }

type Row = Record<string, unknown>;

const ADMIN_PASSWORD = 'bench-admin-password-0123';
const HASH_LOG_N = 12;

function secret(): Uint8Array {
  const s = process.env.BENCH_JWT_SECRET;
  if (!s || s.length < 32) throw new Error('BENCH_JWT_SECRET (32+ characters) is required');
  return new TextEncoder().encode(s);
}

async function genericServer(file: string): Promise<{ app: FastifyInstance; headers: Record<string, string>; close: () => Promise<void> }> {
  const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
  const db = openDatabase(file);
  await prepareDatabase(db, registry); // schema sync is skipped: the bench database is synced already
  const built = await buildApp({ db, registry, jwtSecret: secret(), hashLogN: HASH_LOG_N, uploadDir: mkdtempSync(join(tmpdir(), 'bench-uploads-')) });
  await ensureAdmin(db, built.service, ADMIN_PASSWORD, HASH_LOG_N);
  const res = await built.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  const token = (res.json() as { data?: { id_token?: string } }).data?.id_token;
  if (!token) throw new Error(`the bench admin could not sign in: ${res.body}`);
  return { app: built.app, headers: { authorization: `Bearer ${token}` }, close: async () => { await built.app.close(); await db.close(); } };
}

function badRequest(message: string) {
  return { success: false, error: { code: 'INVALID_QUERY', message } };
}

/** What a careful developer would write by hand for these two endpoints, nothing more. */
function handServer(file: string, q: HandSql, checkToken: boolean): { app: FastifyInstance; headers: Record<string, string>; close: () => Promise<void> } {
  const raw = new BetterSqlite3(file);
  // the same connection settings as server/db/sqlite/sqlite-database.ts (page cache and mmap included)
  applySqlitePragmas(raw);
  const listRows = raw.prepare(q.listRows);
  const listCount = raw.prepare(q.listCount);
  const getOne = raw.prepare(q.get);

  // stored as scaled integers: qty is decimal(15,4), unit_cost and value are money (2 places)
  const decode = (r: Row): Row => {
    if (r.qty !== null) r.qty = (r.qty as number) / 10_000;
    if (r.unit_cost !== null) r.unit_cost = (r.unit_cost as number) / 100;
    if (r.value !== null) r.value = (r.value as number) / 100;
    return r;
  };

  const app = Fastify({ logger: false });
  if (checkToken) {
    // any real endpoint authenticates: verify the same HS256 bearer token (no permission lookup)
    const key = createSecretKey(secret()); // imported once, not on every verify
    app.addHook('onRequest', async (request, reply) => {
      const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      try {
        if (!m) throw new Error('no token');
        await jwtVerify(m[1]!, key, { algorithms: ['HS256'] });
      } catch {
        return reply.status(401).send({ success: false, error: { code: 'UNAUTHORIZED' } });
      }
    });
  }
  app.get(`/api/${LEDGER}`, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    let productId: number;
    try {
      productId = Number((JSON.parse(query.filter ?? '{}') as { product_id?: { _eq?: unknown } }).product_id?._eq);
    } catch {
      return reply.status(400).send(badRequest('filter must be JSON'));
    }
    if (!Number.isInteger(productId)) return reply.status(400).send(badRequest('filter on product_id _eq is required'));
    const limit = Math.min(Number(query.limit ?? 100) || 100, 500);
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    const offset = (page - 1) * limit;
    const rows = listRows.all(productId, limit, offset) as Row[];
    for (const r of rows) decode(r);
    const meta: Row = { page, limit, offset };
    if (query.meta) meta.total_count = (listCount.get(productId) as { n: number }).n;
    return { success: true, data: rows, meta };
  });
  app.get<{ Params: { id: string } }>(`/api/${LEDGER}/:id`, async (request, reply) => {
    if (!/^[1-9][0-9]{0,14}$/.test(request.params.id)) return reply.status(404).send({ success: false, error: { code: 'NOT_FOUND' } });
    const row = getOne.get(Number(request.params.id)) as Row | undefined;
    if (!row) return reply.status(404).send({ success: false, error: { code: 'NOT_FOUND' } });
    return { success: true, data: decode(row) };
  });
  return { app, headers: {}, close: async () => { await app.close(); raw.close(); } };
}

async function main(): Promise<void> {
  const [mode, file] = process.argv.slice(2);
  if (!file || (mode !== 'generic' && mode !== 'hand')) throw new Error('usage: bench-server.ts generic|hand <sqlite file>');
  const server = mode === 'generic'
    ? await genericServer(file)
    : handServer(file, JSON.parse(process.env.BENCH_SQL ?? 'null') as HandSql, process.env.BENCH_HAND_AUTH !== '0');
  // profiled (BENCH_CPU_PROF): the requests served, for request-breakdown.ts's µs per request
  let served = 0;
  if (process.env.BENCH_CPU_PROF) server.app.server.on('request', () => { served++; });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, headers: server.headers })}\n`);
  const stop = async () => {
    if (process.env.BENCH_CPU_PROF) console.error(`[bench-server] ${mode} served ${served} requests`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error(`[bench-server] ${(err as Error).stack ?? err}`);
  process.exit(1);
});
