/**
 * The app alone in a process of its own, for reports-bench.ts to measure an
 * export's memory as the server's, not the bench's (which holds the seeded
 * data and a second app): opens BENCH_DB (a SQLite file or a PostgreSQL URL),
 * listens on a free local port and prints `listening <port>`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/database-factory.ts';
import { buildApp } from '../../server/app.ts';
import { readReportDir } from '../../server/reports/report-catalogue.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';

const SCHEMAS_DIR = join(import.meta.dirname, '../../schemas');
const db = openDatabase(process.env.BENCH_DB!);
const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
const reports = readReportDir(join(SCHEMAS_DIR, 'reports'), registry);
const built = await buildApp({ db, registry, jwtSecret: new TextEncoder().encode('bench-secret-bench-secret-bench-secret-00'), hashLogN: 10, uploadDir: mkdtempSync(join(tmpdir(), 'bench-uploads-')), reports });
const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${new URL(address).port}`);
process.on('SIGTERM', () => { void built.app.close().then(() => db.close()).then(() => process.exit(0)); });
