/**
 * Issue 46 §3: the database's dialects live in one place. A file outside server/db/ that tests
 * the database kind (SQLite or PostgreSQL) and does something different fails here: it calls a
 * dialect-adapter function of server/db/ instead. And the server reaches scripts/ by no import,
 * not even one whose path is computed at run time (the import graph sees only literal paths;
 * the web build and the server once loaded each other that way).
 */
import { describe, expect, it } from 'vitest';
import { computedImportsIntoScripts, dialectBranches, readSource, sourcesUnder } from './source-rules.ts';

describe('dialect branches', () => {
  it('are found in a made-up source, and comments and backup formats are not branches', () => {
    const source = [
      "import { onPostgres } from '../db/dialect-adapter.ts';",
      "const pg = db.adapter.name === 'postgres';",
      "if (dialect !== 'sqlite') q = q.forUpdate();",
      "if (onPostgres(trx)) await lock(trx);",
      "const x = k.getExecutor().adapter instanceof PostgresAdapter;",
      "switch (db.adapter.name) {",
      "// PostgreSQL alters the key in place: db.adapter.name === 'postgres'",
      " * SQLite has one writer at a time (dialect === 'sqlite')",
      "if (kind === 'sqlite') return openSqliteSource(path);",
      "log(`serving (database: ${db.adapter.name})`);",
    ].join('\n');
    expect(dialectBranches(source)).toEqual([2, 3, 4, 5, 6]);
  });

  it('live only in server/db/', () => {
    const outside = sourcesUnder('server').filter((f) => !f.startsWith('server/db/'));
    expect(outside.length).toBeGreaterThan(100);
    const found = outside.flatMap((f) => dialectBranches(readSource(f)).map((line) => `${f}:${line}`));
    expect(found).toEqual([]);
  });

  it('are not in the seeders either (the bench data is written through server/db/bulk-rows.ts)', () => {
    const found = sourcesUnder('seed').flatMap((f) => dialectBranches(readSource(f)).map((line) => `${f}:${line}`));
    expect(found).toEqual([]);
  });

  it('are what the adapter functions of server/db/ are made of (the rule reads the real sources)', () => {
    expect(dialectBranches(readSource('server/db/dialect-sql.ts')).length).toBeGreaterThan(0);
  });
});

describe('run-time imports from server/ into scripts/', () => {
  it('are found in a made-up source when their path is computed', () => {
    const source = [
      "import { join } from 'node:path';",
      "const mod = await import(pathToFileURL(join(root, 'scripts', 'build-state.mjs')).href);",
      "const b = await import(`${root}/scripts/web-build.mjs`);",
      "const c = await import('./web/web-static.ts');",
      "const d = await import(`./plain.ts`);",
    ].join('\n');
    expect(computedImportsIntoScripts(source)).toEqual([2, 3]);
    expect(computedImportsIntoScripts("const m = await import(pathOf('x'));")).toEqual([]);
  });

  it('are none', () => {
    const found = sourcesUnder('server').flatMap((f) => computedImportsIntoScripts(readSource(f)).map((line) => `${f}:${line}`));
    expect(found).toEqual([]);
  });
});
