/**
 * `npm run migrate-to-postgres -- --from data/backoffice.sqlite --to postgres://…`: copies a SQLite
 * database into an empty PostgreSQL one and checks every table (server/admin/migrate-to-postgres.ts).
 */
import { resolve } from 'node:path';
import { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../server/schema-files.ts';
import { migrateSqliteToPostgres } from '../server/admin/migrate-to-postgres.ts';
import { prepareDatabase } from '../server/bootstrap.ts';

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function main(argv: string[]): Promise<number> {
  const from = arg(argv, 'from');
  const to = arg(argv, 'to');
  if (!from || !to) {
    console.error('usage: npm run migrate-to-postgres -- --from data/backoffice.sqlite --to postgres://user@host:5432/db [--force]');
    return 2;
  }
  const registry = new SchemaRegistry(readSchemaDir(resolve(process.env.SCHEMAS_DIR ?? 'schemas')));
  const report = await migrateSqliteToPostgres(resolve(from), to, registry, prepareDatabase, {
    force: argv.includes('--force'),
    onWait: () => console.error('a server is preparing the target database; waiting for it to finish'),
  });
  for (const t of report.tables) {
    console.log(`${t.ok ? 'ok  ' : 'FAIL'} ${t.table.padEnd(36)} ${String(t.source_rows).padStart(8)} → ${String(t.target_rows).padStart(8)}  ${t.source_checksum}${t.ok ? '' : ` ≠ ${t.target_checksum}`}`);
  }
  for (const t of report.skippedTables) console.log(`skipped table ${t}: no schema describes it`);
  for (const c of report.skippedColumns) console.log(`skipped column ${c}: no schema describes it`);
  console.log(report.ok ? `done: ${report.tables.length} tables copied, every row count and checksum matches` : 'MISMATCH: see the FAIL lines above');
  return report.ok ? 0 : 1;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err: unknown) => {
  console.error(`migrate-to-postgres: ${(err as Error).message}`);
  process.exit(1);
});
