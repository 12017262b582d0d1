import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { ChangeTracker } from '../change-tracker.ts';

/** The SQL function the watching triggers call; registered on the connection, never stored in the file. */
const CHANGED_FN = 'bo_table_changed';
const TRIGGER_PREFIX = 'bo_changed_';
const OPERATIONS = ['insert', 'update', 'delete'] as const;
/**
 * Functions whose value depends only on their arguments. A statement calling any other (random(),
 * date('now'), changes(), an application function) may answer differently with no table changed, so
 * it is never kept. Date and time functions are left out although they are pure for a fixed date:
 * 'now' is an argument like any other.
 */
const PURE_FUNCTIONS = new Set([
  'json_object', 'json_array', 'json', 'json_quote', 'json_extract', 'json_type', 'json_valid', 'json_group_array', 'json_group_object',
  'instr', 'lower', 'upper', 'substr', 'substring', 'length', 'octet_length', 'like', 'glob', 'abs', 'round', 'sign', 'replace',
  'trim', 'ltrim', 'rtrim', 'printf', 'format', 'hex', 'quote', 'typeof', 'unicode', 'char', 'nullif', 'coalesce', 'ifnull', 'iif',
  'min', 'max', 'count', 'sum', 'total', 'avg', 'group_concat', 'string_agg',
]);
const FUNCTION_OPCODES = new Set(['Function', 'PureFunc', 'AggStep', 'AggStep1', 'AggFinal', 'AggValue', 'AggInverse']);
/** Cursors on a table or index, by root page. */
const TABLE_CURSORS = new Set(['OpenRead', 'ReopenIdx']);
/** Cursors on the statement's own scratch data (sorters, temporary indexes, subquery results). */
const SCRATCH_CURSORS = new Set(['OpenEphemeral', 'OpenAutoindex', 'OpenPseudo', 'OpenDup', 'SorterOpen']);
/** Any other cursor (OpenWrite, an opcode of a later SQLite) or any virtual table opcode (VOpen, VFilter…) makes the statement unkept. */
const isOtherCursor = (opcode: string) => /^(Open|Reopen)|^V[A-Z]/.test(opcode) && !SCRATCH_CURSORS.has(opcode) && !TABLE_CURSORS.has(opcode);

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteText = (text: string) => `'${text.replaceAll("'", "''")}'`;

interface ExplainRow { opcode: string; p2: number; p3: number; p4: string | null }

/**
 * Which tables of a SQLite database changed, kept by the connection that changes them.
 *
 * Every table of the main database gets three TEMP triggers (after insert, update and delete) that
 * call a function of this process with the table's name. TEMP: they live on this connection only,
 * so the file is left as it is and another program opening it pays nothing. Each change takes the
 * table's version to a new value of one clock.
 *
 * Changes this connection cannot see happen:
 * - in another connection or process (SERVER_WORKERS, the sqlite3 shell): `PRAGMA data_version`
 *   moves, and everything kept before is treated as changed;
 * - to the schema (a table created, altered, renamed or rebuilt, which may drop or move its
 *   triggers; a TEMP table that would hide a main one): `PRAGMA schema_version` of main or temp
 *   moves; everything is treated as changed and the triggers are checked again, outside any
 *   transaction.
 *
 * A change inside a transaction is seen by the transaction's own reads before it is committed, and
 * may yet be rolled back: its tables count as changing until the transaction has ended, and then
 * change once more.
 */
export class SqliteChangeTracker implements ChangeTracker {
  private clock = 0;
  /** Points before this one are no longer comparable: another connection or the schema changed something. */
  private floor = 0;
  private readonly versions = new Map<string, number>();
  /** Tables changed by the transaction still open. */
  private readonly changing = new Set<string>();
  private readonly watched = new Set<string>();
  private watching = false;
  private readonly dataVersion: BetterSqlite3.Statement;
  private readonly schemaVersion: BetterSqlite3.Statement;
  /** The temp schema's version too: a TEMP table named like a main table would take its place in every statement. */
  private readonly tempSchemaVersion: BetterSqlite3.Statement;
  private lastData = -1;
  private lastSchema = -1;
  private lastTempSchema = -1;
  /** Bounded by the SQL texts' size as well: a filter with a long list of values makes a long text. */
  private readonly readsOf = new LRUCache<string, { tables: readonly string[] | null }>({ max: 2000, maxSize: 4 * 1024 * 1024, sizeCalculation: (_v, sql) => sql.length * 2 + 64 });

  constructor(private readonly raw: BetterSqlite3.Database) {
    raw.function(CHANGED_FN, { deterministic: false, directOnly: false }, (table: unknown) => {
      const name = String(table);
      this.versions.set(name, ++this.clock);
      this.changing.add(name);
      return null;
    });
    this.dataVersion = raw.prepare('PRAGMA data_version').pluck();
    this.schemaVersion = raw.prepare('PRAGMA main.schema_version').pluck();
    this.tempSchemaVersion = raw.prepare('PRAGMA temp.schema_version').pluck();
  }

  mark(): number | null {
    const data = this.dataVersion.get() as number;
    const schema = this.schemaVersion.get() as number;
    const tempSchema = this.tempSchemaVersion.get() as number;
    if (schema !== this.lastSchema || tempSchema !== this.lastTempSchema) {
      this.lastSchema = schema;
      this.lastTempSchema = tempSchema;
      this.watching = false;
      this.watched.clear();
      this.readsOf.clear();
      this.floor = ++this.clock;
    }
    if (data !== this.lastData) {
      this.lastData = data;
      this.floor = ++this.clock;
    }
    if (this.raw.inTransaction) return this.watching ? this.clock : null;
    if (this.changing.size) {
      // the transaction that changed them has ended (committed or rolled back): they changed once more
      for (const t of this.changing) this.versions.set(t, ++this.clock);
      this.changing.clear();
    }
    if (!this.watching) {
      try {
        this.watch();
      } catch {
        return null;
      }
    }
    return this.clock;
  }

  reads(sql: string, parameters: readonly unknown[]): readonly string[] | null {
    if (!this.watching) return null;
    let known = this.readsOf.get(sql);
    if (!known) {
      known = { tables: this.explain(sql, parameters) };
      this.readsOf.set(sql, known);
    }
    return known.tables;
  }

  unchangedSince(tables: readonly string[], at: number): boolean {
    if (at < this.floor) return false;
    for (const t of tables) {
      if (this.changing.has(t)) return false;
      const v = this.versions.get(t);
      if (v !== undefined && v > at) return false;
    }
    return true;
  }

  /** Puts the triggers on every table that has none: outside a transaction, whose rollback would take them away again. */
  private watch(): void {
    const tables = this.raw.prepare(`select name from main.sqlite_schema where type = 'table' and name not like 'sqlite\\_%' escape '\\' and sql not like 'create virtual%'`).pluck().all() as string[];
    // by the table each is on: a renamed table takes its triggers along under their old names
    const have = new Map((this.raw.prepare(`select name, tbl_name from temp.sqlite_schema where type = 'trigger' and name like '${TRIGGER_PREFIX}%'`).all() as { name: string; tbl_name: string }[]).map((r) => [r.name, r.tbl_name]));
    this.watched.clear();
    for (const table of tables) {
      try {
        for (const op of OPERATIONS) {
          const name = `${TRIGGER_PREFIX}${table}_${op}`;
          const on = have.get(name);
          if (on === table) continue;
          if (on !== undefined) this.raw.exec(`drop trigger temp.${quoteName(name)}`);
          this.raw.exec(`create temp trigger ${quoteName(name)} after ${op} on main.${quoteName(table)} begin select ${CHANGED_FN}(${quoteText(table)}); end`);
        }
        this.watched.add(table);
      } catch {
        // a table SQLite refuses a trigger on (a virtual table's shadow table) stays unwatched: reads of it are never kept
      }
    }
    // the triggers changed the temp schema's version, not main's: neither is a change to what statements read
    this.lastSchema = this.schemaVersion.get() as number;
    this.lastTempSchema = this.tempSchemaVersion.get() as number;
    this.watching = true;
  }

  /** The tables the statement's program opens, read from EXPLAIN: the same program SQLite runs, whatever the parameters. */
  private explain(sql: string, parameters: readonly unknown[]): readonly string[] | null {
    let program: ExplainRow[];
    try {
      program = this.raw.prepare(`EXPLAIN ${sql}`).all(...parameters) as ExplainRow[];
    } catch {
      return null;
    }
    const byRoot = new Map((this.raw.prepare(`select rootpage, tbl_name from main.sqlite_schema where rootpage > 0`).all() as { rootpage: number; tbl_name: string }[]).map((r) => [r.rootpage, r.tbl_name]));
    const tables = new Set<string>();
    for (const op of program) {
      if (isOtherCursor(op.opcode)) return null;
      if (TABLE_CURSORS.has(op.opcode)) {
        const table = op.p3 === 0 ? byRoot.get(op.p2) : undefined;
        if (table === undefined || !this.watched.has(table)) return null;
        tables.add(table);
      } else if (FUNCTION_OPCODES.has(op.opcode)) {
        const name = /^([A-Za-z_0-9]+)\(/.exec(op.p4 ?? '')?.[1]?.toLowerCase();
        if (!name || !PURE_FUNCTIONS.has(name)) return null;
      }
    }
    return [...tables];
  }
}
