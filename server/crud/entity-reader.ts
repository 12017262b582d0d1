import { sql, type CompiledQuery, type Kysely, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { softDeleteColumn } from '../../engine/schema/schema-types.ts';
import { describeField, type FieldResolver } from '../../engine/filter/filter-parser.ts';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import { columnDefs, rowDecoder } from '../db/field-codec.ts';
import { compileFilter, linkedValue, type CompileContext } from './filter-compiler.ts';
import { parseListQuery, type ListQuery, type RawListQuery } from './list-query.ts';
import type { RequestContext } from './access-policy.ts';
import type { LinkedIds, LinkedRead } from './link-values.ts';
import { ListStatementCache } from './list-statement-cache.ts';
import { notFound } from './record-values.ts';
import { compileSearch, searchesThroughLinks } from './search-compiler.ts';
import type { ServiceCore } from './service-core.ts';

type Row = Record<string, unknown>;
type EB = ExpressionBuilder<any, any>;
interface Columns { defs: Map<string, FieldDef>; paths: string[][]; decode: (r: Row) => Row }

export interface ListResult {
  rows: Row[];
  total?: number;
}

export const ALIAS = 't';
/** A value no id or scope filter can hold; it marks the id's parameter slot in a cached compiled query. */
export const ID_MARKER = -987_654_321_987;
const ROW_QUERY_CACHE = 1000;

/**
 * The reading part of the generic service: lists, counts, one record with its lines, and the
 * reads the writes make (a row as the caller may see it, linked rows for link checks). Every read
 * is inside the caller's row scope; a list's rows are decoded by the one codec (field-codec.ts),
 * on both dialects, and the route serializes them to JSON.
 */
export class EntityReader {
  private readonly listStatements = new ListStatementCache(ROW_QUERY_CACHE);
  /**
   * Reading one row by id has one shape per entity, field list and caller scope (a record's lines,
   * one per line entity); only the id changes. Its compiled SQL is kept by that shape and the id is put in the parameter slot that
   * a marker value took when it was compiled.
   */
  private readonly rowQueries = new Map<string, { compiled: CompiledQuery; idSlot: number }>();
  /** Column definitions per merged schema object; a new override version brings new objects, so this never goes stale. */
  private readonly columnCache = new WeakMap<EntitySchema, Columns>();
  private readonly scopeTexts = new WeakMap<FilterNode, string>();
  private readonly lineFields = new WeakMap<EntitySchema, [string, FieldDef][]>();

  constructor(private readonly core: ServiceCore) {}

  /** Links are followed inside the caller's row scope: a visible row never reveals a linked row the caller may not see. */
  private compileContext(ctx: RequestContext): CompileContext {
    return { adapter: this.core.db.adapter, entity: (n) => this.core.registry.get(n), scope: (e) => this.core.policy.rowFilter(ctx, e) };
  }

  resolver(ctx: RequestContext): FieldResolver {
    return { entity: (n) => this.core.registry.get(n), canRead: (e, f, viaLink) => this.core.policy.canReadField(ctx, e, f, viaLink) };
  }

  parseQuery(entity: EntitySchema, raw: RawListQuery, ctx: RequestContext, extra?: ReadonlySet<string>): ListQuery {
    return parseListQuery(raw, entity, this.resolver(ctx), extra);
  }

  where(eb: EB, entity: EntitySchema, ctx: RequestContext, query: Pick<ListQuery, 'filter' | 'search' | 'deleted'> | null): Expression<SqlBool> {
    const parts: Expression<SqlBool>[] = [];
    const soft = softDeleteColumn(entity);
    // a literal, not a parameter: SQLite matches a bound value against the partial unique indexes'
    // `where is_deleted = 0`, and a statement whose plan looked at a bound value is compiled again
    // on every run (sqlite3Reprepare was about 9 % of a list's instructions)
    if (soft) parts.push(query?.deleted ? sql<SqlBool>`${sql.ref(`${ALIAS}.${soft}`)} = 1` : sql<SqlBool>`${sql.ref(`${ALIAS}.${soft}`)} = 0`);
    const cc = this.compileContext(ctx);
    const scope = this.core.policy.rowFilter(ctx, entity);
    if (scope) parts.push(compileFilter(eb, scope, entity, ALIAS, cc));
    if (query?.filter) parts.push(compileFilter(eb, query.filter, entity, ALIAS, cc));
    // through links too (searchFields `customer_id.name_th`), each link read only as the caller may read it
    const found = query?.search ? compileSearch(eb, entity, ALIAS, query.search, cc, (e, f) => this.core.policy.canReadField(ctx, e, f, true)) : null;
    if (found) parts.push(found);
    return eb.and(parts);
  }

  columnsOf(entity: EntitySchema): Columns {
    let c = this.columnCache.get(entity);
    if (!c) {
      const defs = columnDefs(entity);
      c = { defs, paths: [...defs.keys()].map((k) => [k]), decode: rowDecoder(defs, softDeleteColumn(entity)) };
      this.columnCache.set(entity, c);
    }
    return c;
  }

  /** The columns a read of `fields` selects (every column for null), in the order the row holds them, each with its decoder's field. */
  selection(entity: EntitySchema, fields: string[][] | null): Columns {
    const cached = this.columnsOf(entity);
    if (!fields) return cached;
    const defs = new Map(cached.defs);
    const paths = fields.some((p) => p.length === 1 && p[0] === 'id') ? fields : [['id'], ...fields];
    for (const p of paths) {
      if (p.length === 1) continue;
      let e = entity;
      let f: FieldDef | undefined;
      for (const step of p) { f = describeField(e, step); if (f?.entity && f.type === 'link') e = this.core.registry.get(f.entity) ?? e; }
      if (f) defs.set(p.join('.'), f);
    }
    return { paths, defs, decode: rowDecoder(defs, softDeleteColumn(entity)) };
  }

  private selectExpressions(eb: EB, entity: EntitySchema, paths: string[][], ctx: RequestContext) {
    // plain columns go in as one raw list: building an aliased reference per column costs more than the query itself
    // (names are schema identifiers, [a-z][a-z0-9_]*, checked by the loader, so quoting them is safe)
    const plain = paths.filter((p) => p.length === 1);
    const out: unknown[] = plain.length ? [sql.raw(plain.map((p) => `"${ALIAS}"."${p[0]}"`).join(', '))] : [];
    const linked = paths.filter((p) => p.length > 1);
    if (linked.length) {
      const cc = this.compileContext(ctx);
      for (const p of linked) out.push(linkedValue(eb, p, entity, ALIAS, cc).as(p.join('.')));
    }
    return out as never;
  }

  async list(entity: EntitySchema, query: ListQuery, ctx: RequestContext): Promise<ListResult> {
    const { paths, decode } = this.selection(entity, query.fields);
    const compiled = this.listStatement(entity, query, ctx, (eb) => this.selectExpressions(eb, entity, paths, ctx));
    const { rows } = await this.core.db.kysely.executeQuery<Row>(compiled);
    const result: ListResult = { rows: rows.map(decode) };
    if (query.withTotal) result.total = await this.count(entity, query, ctx);
    return result;
  }

  /** A list page's statement, kept by its shape. */
  private listStatement(entity: EntitySchema, query: ListQuery, ctx: RequestContext, select: (eb: EB) => never): CompiledQuery {
    const k = this.core.db.kysely;
    const build = (limit: number, offset: number) => {
      let q = k.selectFrom(`${entity.name} as ${ALIAS}`)
        .select((eb) => select(eb as EB))
        .where((eb) => this.where(eb as EB, entity, ctx, query));
      for (const s of query.sort) {
        q = s.path.length === 1
          ? q.orderBy(`${ALIAS}.${s.path[0]}`, s.desc ? 'desc' : 'asc')
          : q.orderBy((eb) => linkedValue(eb as EB, s.path, entity, ALIAS, this.compileContext(ctx)) as never, s.desc ? 'desc' : 'asc');
      }
      // a stable tiebreaker keeps pages from overlapping when sort values repeat; it runs in the
      // direction of the last key so an index on (filter, sort key) also yields id order (rowid is its last column)
      const lastDesc = query.sort.length ? query.sort[query.sort.length - 1]!.desc : false;
      if (!query.sort.some((s) => s.path.length === 1 && s.path[0] === 'id')) q = q.orderBy(`${ALIAS}.id`, lastDesc ? 'desc' : 'asc');
      // literals, not parameters: see list-statement-cache.ts
      return q.limit(sql.lit(limit)).offset(sql.lit(offset)).compile();
    };
    const key = this.listStatements.keyOf(entity.name, this.core.registry.version, ctx.userId, this.core.policy.rowFilter(ctx, entity), query, searchesThroughLinks(entity));
    return key ? this.listStatements.statement(key, query.limit, query.offset, build) : build(query.limit, query.offset);
  }

  /** A list's count, kept by the list's shape like its page (its sort and fields make more keys than needed, never a wrong one). */
  async count(entity: EntitySchema, query: ListQuery, ctx: RequestContext): Promise<number> {
    const build = () => this.core.db.kysely.selectFrom(`${entity.name} as ${ALIAS}`)
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => this.where(eb as EB, entity, ctx, query))
      .compile();
    const key = this.listStatements.keyOf(`${entity.name}\u0000count`, this.core.registry.version, ctx.userId, this.core.policy.rowFilter(ctx, entity), query, searchesThroughLinks(entity));
    const statement = key ? this.listStatements.once(key, build) : build();
    const { rows } = await this.core.db.kysely.executeQuery<{ n: number | string | bigint }>(statement);
    return Number(rows[0]?.n ?? 0);
  }

  async loadRow(k: Kysely<any>, entity: EntitySchema, id: number, ctx: RequestContext, fields: string[][] | null = null): Promise<Row | undefined> {
    const { paths, decode } = this.selection(entity, fields);
    const build = (idValue: number) => k.selectFrom(`${entity.name} as ${ALIAS}`)
      .select((eb) => this.selectExpressions(eb as EB, entity, paths, ctx))
      .where((eb) => eb.and([eb(`${ALIAS}.id`, '=', idValue), this.where(eb as EB, entity, ctx, null)]));
    // links read through dotted fields carry their targets' scopes, which the key below does not name
    if (paths.some((p) => p.length > 1)) {
      const row = await build(id).executeTakeFirst();
      return row ? decode(row) : undefined;
    }
    const scope = this.core.policy.rowFilter(ctx, entity);
    const key = ['row', entity.name, this.core.registry.version, fields ? JSON.stringify(fields) : '*', ctx.userId ?? 'system', scope ? this.scopeText(scope) : ''].join('\u0000');
    const { rows } = await k.executeQuery<Row>(this.byIdStatement(key, id, (marker) => build(marker).compile()));
    return rows[0] ? decode(rows[0]) : undefined;
  }

  /** A scope's text for keys, written once per scope object (the policy hands out one per principal and schema). */
  private scopeText(scope: FilterNode): string {
    let text = this.scopeTexts.get(scope);
    if (text === undefined) this.scopeTexts.set(scope, (text = JSON.stringify(scope)));
    return text;
  }

  /** The lines fields of a merged schema object, in its order. */
  private linesOf(entity: EntitySchema): [string, FieldDef][] {
    let lines = this.lineFields.get(entity);
    if (!lines) this.lineFields.set(entity, (lines = Object.entries(entity.fields).filter(([, f]) => f.type === 'lines')));
    return lines;
  }

  /** A kept statement (see rowQueries) with `id` put in its marker's slot; `build` compiles it with the marker on a miss. */
  private byIdStatement(key: string, id: number, build: (marker: number) => CompiledQuery): CompiledQuery {
    let q = this.rowQueries.get(key);
    if (!q) {
      const compiled = build(ID_MARKER);
      const idSlot = compiled.parameters.indexOf(ID_MARKER);
      if (idSlot < 0) throw new Error('the id marker is missing from the compiled row query');
      q = { compiled, idSlot };
      if (this.rowQueries.size >= ROW_QUERY_CACHE) this.rowQueries.delete(this.rowQueries.keys().next().value!);
      this.rowQueries.set(key, q);
    }
    const parameters = [...q.compiled.parameters];
    parameters[q.idSlot] = id;
    return { ...q.compiled, parameters };
  }

  async loadLines(k: Kysely<any>, entity: EntitySchema, id: number, only?: string[][] | null): Promise<Row> {
    const reads: Promise<[string, Row[]]>[] = [];
    for (const [name, f] of this.linesOf(entity)) {
      if (only && !only.some((p) => p[0] === name)) continue;
      const child = this.core.entity(f.entity!);
      const { decode } = this.columnsOf(child);
      // a record's lines have one statement per line entity and schema version, whoever reads them
      const statement = this.byIdStatement(['lines', child.name, this.core.registry.version].join('\u0000'), id,
        (marker) => k.selectFrom(child.name).selectAll().where(child.parent!.field, '=', marker).orderBy('line_no').orderBy('id').compile());
      reads.push(k.executeQuery<Row>(statement).then(({ rows }) => [name, rows.map(decode)]));
    }
    return Object.fromEntries(await Promise.all(reads));
  }

  async get(entity: EntitySchema, id: number, ctx: RequestContext, fields: string[][] | null = null): Promise<Row> {
    const k = this.core.db.kysely;
    if (!this.linesOf(entity).length) {
      // most entities have no lines: the row is the answer, without a second await and a copy
      const row = await this.loadRow(k, entity, id, ctx, fields);
      if (!row) throw notFound(entity, id);
      return row;
    }
    // on PostgreSQL the row and its lines come over two pooled connections at once; lines of a row the caller may not see are dropped unread
    const [row, lines] = await Promise.all([
      this.loadRow(k, entity, id, ctx, fields?.filter((p) => describeField(entity, p[0]!)?.type !== 'lines') ?? null),
      this.loadLines(k, entity, id, fields),
    ]);
    if (!row) throw notFound(entity, id);
    return { ...row, ...lines };
  }

  /** A record with its lines as stored, whoever may see it (the writes' before and after). */
  async readWhole(trx: Kysely<any>, entity: EntitySchema, id: number): Promise<Row> {
    const row = await this.loadRow(trx, entity, id, { userId: null, ip: null });
    return { ...row, ...(await this.loadLines(trx, entity, id)) };
  }

  /** Reads linked rows as the caller may see them, for link checks and fills (never more than a list would show). */
  linkedRead(trx: Kysely<any>, ctx: RequestContext): LinkedRead {
    return async (target, id, field) => {
      if (!Number.isSafeInteger(id) || !this.core.policy.canReadField(ctx, target, field, false)) return undefined;
      const row = await this.loadRow(trx, target, id, ctx, field === 'id' ? [['id']] : [['id'], [field]]);
      return row ? { value: row[field] } : undefined;
    };
  }

  /** The ids of a linked entity the caller may see, as linkedRead of `id` judges one. */
  linkedIds(trx: Kysely<any>, ctx: RequestContext): LinkedIds {
    return async (target, ids) => {
      const safe = ids.filter((id) => Number.isSafeInteger(id));
      if (!safe.length || !this.core.policy.canReadField(ctx, target, 'id', false)) return new Set();
      const out = new Set<number>();
      // chunks keep the parameter list far below either dialect's limit
      for (let at = 0; at < safe.length; at += 500) {
        const rows = await trx.selectFrom(`${target.name} as ${ALIAS}`).select(`${ALIAS}.id`)
          .where((eb) => eb.and([eb(`${ALIAS}.id`, 'in', safe.slice(at, at + 500)), this.where(eb as EB, target, ctx, null)]))
          .execute();
        for (const r of rows) out.add(Number(r.id));
      }
      return out;
    };
  }
}
