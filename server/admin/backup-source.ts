import { createHash } from 'node:crypto';
import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import { AppError } from '../errors/app-error.ts';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, DATA_SCHEMA_VERSION, describeSqliteFile, portable, type TableInfo } from './table-data.ts';

/**
 * A backup (or a SQLite file to migrate) read table by table, in
 * parents-first order. Every read re-checks what the file says about itself,
 * so a damaged file fails before or during a restore, never silently.
 */
export interface BackupMeta {
  format: string;
  format_version: number;
  schema_version: number;
  schema_hash: string | null;
  dialect: 'sqlite' | 'postgres';
  created_at: string;
  /** Rows per table as the backup recorded them. */
  counts: Record<string, number>;
}

export interface SourceTable {
  name: string;
  columns: string[];
  rows(): AsyncIterable<unknown[]>;
}

export interface BackupSource {
  kind: 'sqlite' | 'jsonl.gz';
  meta: BackupMeta;
  tables(): AsyncIterable<SourceTable>;
  close(): void;
}

const invalid = (why: string) => new AppError('BACKUP_INVALID', `The backup file cannot be used: ${why}`, { reason: why });

export function fileKind(path: string): 'sqlite' | 'jsonl.gz' | null {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    if (n >= 16 && head.toString('latin1') === 'SQLite format 3\u0000') return 'sqlite';
    if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'jsonl.gz';
    return null;
  } finally {
    closeSync(fd);
  }
}

export const BACKUP_META_KEY = 'backup_meta';

function checkMeta(meta: Partial<BackupMeta> | null | undefined): BackupMeta {
  if (!meta || meta.format !== BACKUP_FORMAT) throw invalid('it is not a backup made by this product');
  if (typeof meta.format_version !== 'number' || meta.format_version > BACKUP_FORMAT_VERSION) throw invalid(`its file format version ${meta.format_version} is not known here`);
  if (typeof meta.schema_version !== 'number') throw invalid('it does not say which schema version it holds');
  if (meta.schema_version > DATA_SCHEMA_VERSION) {
    throw new AppError('BACKUP_TOO_NEW', `The backup holds data schema version ${meta.schema_version}, newer than this server's ${DATA_SCHEMA_VERSION}; upgrade the server before restoring it`, { backup_schema_version: meta.schema_version, server_schema_version: DATA_SCHEMA_VERSION });
  }
  return meta as BackupMeta;
}

/**
 * A SQLite file: a backup (its metadata sits in schema_state under
 * `backup_meta`) or, with `requireMeta` false, a live database file to migrate.
 */
export function openSqliteSource(path: string, requireMeta = true): BackupSource {
  let raw: BetterSqlite3.Database;
  try {
    raw = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw invalid(`it cannot be opened as SQLite (${(err as Error).message})`);
  }
  try {
    const check = raw.pragma('integrity_check') as { integrity_check: string }[];
    if (check.length !== 1 || check[0]!.integrity_check !== 'ok') throw invalid(`SQLite integrity check failed (${check.slice(0, 3).map((c) => c.integrity_check).join('; ')})`);
    const tables: TableInfo[] = describeSqliteFile(raw);
    let meta: BackupMeta;
    const stored = tables.some((t) => t.name === 'schema_state')
      ? (raw.prepare('select value from schema_state where key = ?').get(BACKUP_META_KEY) as { value: string } | undefined)
      : undefined;
    if (stored) {
      let parsed: Partial<BackupMeta> | null = null;
      try { parsed = JSON.parse(stored.value); } catch { /* reported below */ }
      meta = checkMeta(parsed);
    } else if (requireMeta) {
      throw invalid('it is not a backup made by this product (no backup_meta)');
    } else {
      const hash = tables.some((t) => t.name === 'schema_state') ? (raw.prepare('select value from schema_state where key = ?').get('hash') as { value: string } | undefined) : undefined;
      meta = { format: BACKUP_FORMAT, format_version: BACKUP_FORMAT_VERSION, schema_version: DATA_SCHEMA_VERSION, schema_hash: hash?.value ?? null, dialect: 'sqlite', created_at: new Date().toISOString(), counts: {} };
    }
    const actual: Record<string, number> = {};
    for (const t of tables) actual[t.name] = Number((raw.prepare(`select count(*) as n from "${t.name}"`).get() as { n: number }).n);
    if (stored) {
      for (const [table, n] of Object.entries(meta.counts)) {
        if (table === 'schema_state') continue; // holds the metadata itself
        if (actual[table] !== n) throw invalid(`table ${table} holds ${actual[table] ?? 'no'} rows, the backup recorded ${n}`);
      }
    } else {
      meta.counts = actual;
    }
    return {
      kind: 'sqlite',
      meta,
      async *tables() {
        for (const t of tables) {
          yield {
            name: t.name,
            columns: t.columns,
            async *rows() {
              const stmt = raw.prepare(`select ${t.columns.map((c) => `"${c}"`).join(', ')} from "${t.name}"${t.hasId ? ' order by id' : ''}`).raw(true);
              for (const r of stmt.iterate() as Iterable<unknown[]>) yield r;
            },
          };
        }
      },
      close: () => raw.close(),
    };
  } catch (err) {
    raw.close();
    throw err;
  }
}

/** Reads the lines of a gzip'd JSON-lines backup; a damaged stream surfaces as BACKUP_INVALID. */
async function* jsonLines(path: string): AsyncGenerator<unknown> {
  const gunzip = createGunzip();
  const input = createReadStream(path).pipe(gunzip);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let failure: Error | null = null;
  gunzip.on('error', (err) => { failure = err; lines.close(); });
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      if (!line) continue;
      try {
        yield { line, value: JSON.parse(line) };
      } catch (err) {
        if (err instanceof SyntaxError) throw invalid(`line ${n} is not JSON`);
        throw err;
      }
    }
  } finally {
    lines.close();
    input.destroy();
  }
  if (failure) throw invalid(`the gzip data is damaged (${(failure as Error).message})`);
}

/**
 * The product's own format for PostgreSQL (and any dialect): gzip'd JSON
 * lines. Line 1 is the metadata; each table is a `{"table", "columns"}` line,
 * one `{"r": [...]}` line per row and an `{"end", "count", "sha256"}` line;
 * the last line is `{"complete": true, "counts": {...}}`.
 */
export async function openJsonlSource(path: string): Promise<BackupSource> {
  const first = jsonLines(path);
  let head: { value: Partial<BackupMeta> } | undefined;
  try {
    head = (await first.next()).value as { value: Partial<BackupMeta> } | undefined;
  } finally {
    await first.return(undefined);
  }
  const meta = checkMeta(head?.value);
  return {
    kind: 'jsonl.gz',
    meta,
    async *tables() {
      const it = jsonLines(path)[Symbol.asyncIterator]();
      const next = async () => {
        const r = await it.next();
        if (r.done) throw invalid('the file ends early (no completion line)');
        return r.value as { line: string; value: Record<string, unknown> };
      };
      await next(); // metadata
      const seen: Record<string, number> = {};
      try {
        for (;;) {
          const { value } = await next();
          if (value.complete === true) {
            const counts = value.counts as Record<string, number> | undefined;
            for (const [t, c] of Object.entries(counts ?? {})) if (seen[t] !== c) throw invalid(`table ${t}: ${seen[t] ?? 0} rows read, ${c} recorded`);
            meta.counts = counts ?? seen;
            if (!(await it.next()).done) throw invalid('there is data after the completion line');
            return;
          }
          if (typeof value.table !== 'string' || !Array.isArray(value.columns)) throw invalid('a table header line was expected');
          const name = value.table;
          const columns = value.columns as string[];
          let done = false;
          yield {
            name,
            columns,
            async *rows() {
              const hash = createHash('sha256');
              let count = 0;
              for (;;) {
                const { line, value: v } = await next();
                if (Array.isArray(v.r)) {
                  if (v.r.length !== columns.length) throw invalid(`a row of ${name} has ${v.r.length} values for ${columns.length} columns`);
                  hash.update(line).update('\n');
                  count++;
                  yield v.r as unknown[];
                  continue;
                }
                if (v.end !== name) throw invalid(`table ${name} is not closed`);
                if (v.count !== count) throw invalid(`table ${name} holds ${count} rows, the backup recorded ${String(v.count)}`);
                if (v.sha256 !== hash.digest('hex')) throw invalid(`the rows of ${name} do not match their checksum`);
                seen[name] = count;
                done = true;
                return;
              }
            },
          };
          if (!done) throw new Error(`the rows of ${name} were not read to the end`);
        }
      } finally {
        await it.return?.(undefined);
      }
    },
    close: () => undefined,
  };
}

export async function openBackupFile(path: string): Promise<BackupSource> {
  let kind: ReturnType<typeof fileKind>;
  try {
    kind = fileKind(path);
  } catch (err) {
    throw invalid(`it cannot be read (${(err as Error).message})`);
  }
  if (kind === 'sqlite') return openSqliteSource(path);
  if (kind === 'jsonl.gz') return openJsonlSource(path);
  throw invalid('it is neither a SQLite backup nor a gzip JSON-lines backup');
}

/** Reads the whole file once without writing anything: every count and checksum is checked. */
export async function verifyBackupFile(path: string): Promise<BackupMeta> {
  try {
    const src = await openBackupFile(path);
    try {
      for await (const t of src.tables()) for await (const _ of t.rows()) { /* reading checks */ }
      return src.meta;
    } finally {
      src.close();
    }
  } catch (err) {
    // whatever else reading a damaged file throws (SQLITE_CORRUPT, a zlib error) is the file's fault
    if (err instanceof AppError) throw err;
    throw invalid((err as Error).message);
  }
}

/** One table of a live database as a backup line stream (used by the JSON-lines writer). */
export function rowLine(values: unknown[]): string {
  return JSON.stringify({ r: values });
}

export { portable };
