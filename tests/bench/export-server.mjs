/**
 * The app alone in a process of its own, for reports-bench.ts to measure an
 * export's memory as the server's, not the bench's (which holds the seeded
 * data and a second app): opens BENCH_DB (a SQLite file or a PostgreSQL URL),
 * listens on a free local port and prints `listening <port>`. Runs the
 * compiled server in build/ when BENCH_SERVER=build (what `npm start` runs:
 * `npm run build` first), else the sources (under tsx, which costs memory of
 * its own: about 50 MB more at rest).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const built = process.env.BENCH_SERVER === 'build';
const load = (path) => import(built ? join(ROOT, 'build', `${path}.js`) : join(ROOT, `${path}.ts`));
const { openDatabase } = await load('server/db/database-factory');
const { buildApp } = await load('server/app');
const { readReportDir } = await load('server/reports/report-catalogue');
const { SchemaRegistry } = await load('engine/schema/schema-registry');
const { readSchemaDir } = await load('server/schema-files');

const schemas = join(ROOT, 'schemas');
const db = openDatabase(process.env.BENCH_DB);
const registry = new SchemaRegistry(readSchemaDir(schemas));
const reports = readReportDir(join(schemas, 'reports'), registry);
const app = await buildApp({ db, registry, jwtSecret: new TextEncoder().encode('bench-secret-bench-secret-bench-secret-00'), hashLogN: 10, uploadDir: mkdtempSync(join(tmpdir(), 'bench-uploads-')), reports });
const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${new URL(address).port}`);
process.on('SIGTERM', () => { void app.app.close().then(() => db.close()).then(() => process.exit(0)); });
