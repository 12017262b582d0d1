import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from '../db/dialect-adapter.ts';
import { copyToFile } from '../db/file-copy.ts';
import { BACKUP_META_KEY, type BackupMeta } from './backup-source.ts';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, DATA_SCHEMA_VERSION, describeTables, portable, readRows } from './table-data.ts';

export type BackupOrigin = 'manual' | 'schedule' | 'upload';

/** What the list shows; kept beside each backup file as <id>.json. */
export interface BackupEntry {
  id: string;
  file: string;
  format: 'sqlite' | 'jsonl.gz';
  size: number;
  sha256: string;
  created_at: string;
  created_by: number | null;
  created_by_name: string | null;
  origin: BackupOrigin;
  dialect: 'sqlite' | 'postgres';
  schema_version: number;
  counts: Record<string, number>;
}

const ID = /^bk-\d{8}-\d{6}-[0-9a-f]{6}$/;

export function newBackupId(now = new Date()): string {
  const s = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `bk-${s}-${randomBytes(3).toString('hex')}`;
}

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

async function schemaHash(db: Database): Promise<string | null> {
  const row = await db.kysely.selectFrom('schema_state').select('value').where('key', '=', 'hash').executeTakeFirst().catch(() => undefined);
  return (row?.value as string | undefined) ?? null;
}

export class BackupStore {
  constructor(readonly dir: string) {}

  private ensureDir() {
    mkdirSync(this.dir, { recursive: true });
  }

  list(): BackupEntry[] {
    if (!existsSync(this.dir)) return [];
    const out: BackupEntry[] = [];
    for (const f of readdirSync(this.dir)) {
      if (!f.endsWith('.json') || !ID.test(f.slice(0, -5))) continue;
      try {
        const e = JSON.parse(readFileSync(join(this.dir, f), 'utf8')) as BackupEntry;
        if (existsSync(join(this.dir, e.file))) out.push(e);
      } catch { /* a half-written sidecar is not listed */ }
    }
    return out.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
  }

  get(id: string): BackupEntry | null {
    if (!ID.test(id)) return null;
    return this.list().find((e) => e.id === id) ?? null;
  }

  pathOf(e: BackupEntry): string {
    return join(this.dir, e.file);
  }

  remove(e: BackupEntry): void {
    rmSync(join(this.dir, e.file), { force: true });
    rmSync(join(this.dir, `${e.id}.json`), { force: true });
  }

  /** Keeps the newest `keep` scheduled backups; manual and uploaded ones stay until removed by hand. */
  prune(keep: number): BackupEntry[] {
    const old = this.list().filter((e) => e.origin === 'schedule').slice(keep);
    for (const e of old) this.remove(e);
    return old;
  }

  private async record(e: Omit<BackupEntry, 'size' | 'sha256'>): Promise<BackupEntry> {
    const path = join(this.dir, e.file);
    const entry: BackupEntry = { ...e, size: statSync(path).size, sha256: await sha256Of(path) };
    const tmp = join(this.dir, `${e.id}.json.tmp`);
    try {
      writeFileSync(tmp, JSON.stringify(entry, null, 2));
      renameSync(tmp, join(this.dir, `${e.id}.json`));
    } catch (err) {
      // the disk filled up at the very end: a backup without its record would be listed nowhere and never removed
      rmSync(tmp, { force: true });
      rmSync(path, { force: true });
      throw err;
    }
    return entry;
  }

  /**
   * An online, consistent backup while users keep working. SQLite: a copy of
   * its file (copyToFile in server/db). PostgreSQL: the product's JSON-lines format read in one REPEATABLE READ,
   * READ ONLY transaction, so every table comes from the same snapshot.
   */
  async create(db: Database, by: { id: number | null; name: string | null }, origin: BackupOrigin): Promise<BackupEntry> {
    this.ensureDir();
    const now = new Date();
    const id = newBackupId(now);
    const hash = await schemaHash(db);
    const base = { id, created_at: now.toISOString(), created_by: by.id, created_by_name: by.name, origin, dialect: db.adapter.name, schema_version: DATA_SCHEMA_VERSION };
    // a database that is one file is copied as that file, another is read into the product's JSON-lines format
    const sqliteTmp = join(this.dir, `${id}.sqlite.tmp`);
    let copied = false;
    try {
      copied = await copyToFile(db, sqliteTmp);
    } catch (err) {
      rmSync(sqliteTmp, { force: true });
      throw err;
    }
    if (copied) {
      const file = `${id}.sqlite`;
      const tmp = sqliteTmp;
      try {
        const copy = new BetterSqlite3(tmp);
        let counts: Record<string, number> = {};
        try {
          copy.pragma('journal_mode = delete');
          const tables = copy.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as { name: string }[];
          counts = Object.fromEntries(tables.map(({ name }) => [name, Number((copy.prepare(`select count(*) as n from "${name}"`).get() as { n: number }).n)]));
          const meta: BackupMeta = { format: BACKUP_FORMAT, format_version: BACKUP_FORMAT_VERSION, schema_version: DATA_SCHEMA_VERSION, schema_hash: hash, dialect: base.dialect, created_at: base.created_at, counts };
          copy.prepare('delete from schema_state where key = ?').run(BACKUP_META_KEY);
          copy.prepare('insert into schema_state (key, value) values (?, ?)').run(BACKUP_META_KEY, JSON.stringify(meta));
        } finally {
          copy.close();
        }
        renameSync(tmp, join(this.dir, file));
        return await this.record({ ...base, file, format: 'sqlite', counts });
      } catch (err) {
        rmSync(tmp, { force: true });
        throw err;
      }
    }
    const file = `${id}.jsonl.gz`;
    const tmp = join(this.dir, `${file}.tmp`);
    const out = createGzip();
    const sink = createWriteStream(tmp);
    // pipeline, not pipe: a write error of the file (ENOSPC on a full disk) must end the backup, not be an
    // unhandled 'error' event that takes the process down, nor leave a write waiting for 'drain' forever
    const piped = pipeline(out, sink);
    piped.catch(() => undefined);
    const write = async (line: string) => {
      if (!out.write(`${line}\n`)) await Promise.race([once(out, 'drain'), piped.then(() => { throw new Error('the backup file closed early'); })]);
    };
    try {
      const counts: Record<string, number> = {};
      await db.kysely.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
        await sql`set transaction read only`.execute(trx);
        const tables = await describeTables(db);
        const meta: BackupMeta = { format: BACKUP_FORMAT, format_version: BACKUP_FORMAT_VERSION, schema_version: DATA_SCHEMA_VERSION, schema_hash: hash, dialect: base.dialect, created_at: base.created_at, counts: {} };
        await write(JSON.stringify(meta));
        for (const t of tables) {
          await write(JSON.stringify({ table: t.name, columns: t.columns }));
          const h = createHash('sha256');
          let n = 0;
          for await (const row of readRows(trx, t)) {
            const line = JSON.stringify({ r: t.columns.map((c) => portable(row[c], t.kinds[c] ?? 'other')) });
            h.update(line).update('\n');
            await write(line);
            n++;
          }
          await write(JSON.stringify({ end: t.name, count: n, sha256: h.digest('hex') }));
          counts[t.name] = n;
        }
        await write(JSON.stringify({ complete: true, counts }));
      });
      out.end();
      await piped;
      renameSync(tmp, join(this.dir, file));
      return await this.record({ ...base, file, format: 'jsonl.gz', counts });
    } catch (err) {
      out.destroy();
      sink.destroy();
      rmSync(tmp, { force: true });
      throw err;
    }
  }

  /** Keeps an uploaded file that passed verification as a listed backup. */
  async adopt(tmpPath: string, kind: 'sqlite' | 'jsonl.gz', meta: BackupMeta, by: { id: number | null; name: string | null }): Promise<BackupEntry> {
    this.ensureDir();
    const id = newBackupId();
    const file = `${id}.${kind}`;
    renameSync(tmpPath, join(this.dir, file));
    return this.record({ id, file, format: kind, created_at: new Date().toISOString(), created_by: by.id, created_by_name: by.name, origin: 'upload', dialect: meta.dialect, schema_version: meta.schema_version, counts: meta.counts });
  }

  uploadPath(): string {
    this.ensureDir();
    return join(this.dir, `upload-${randomBytes(8).toString('hex')}.tmp`);
  }
}
