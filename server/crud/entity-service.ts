import { sql, type CompiledQuery, type Kysely, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { softDeleteColumn } from '../../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { describeField, type FieldResolver } from '../../engine/filter/filter-parser.ts';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import type { Database } from '../db/dialect-adapter.ts';
import { columnDefs, rowDecoder } from '../db/field-codec.ts';
import { AppError } from '../errors/app-error.ts';
import { compileFilter, linkedValue, type CompileContext } from './filter-compiler.ts';
import { parseListQuery, type ListQuery, type RawListQuery } from './list-query.ts';
import { allowEverything, isSystem, type AccessPolicy, type CrudAction, type RequestContext, type WriteEvent } from './access-policy.ts';
import { ValidatorCache } from './validator-cache.ts';
import { nextNumber } from './numbering-series.ts';
import { applyFills, checkLinks, type LinkedIds, type LinkedRead } from './link-values.ts';
import { compileSearch, searchesThroughLinks } from './search-compiler.ts';
import { changedFields } from './changed-fields.ts';
import { normalizeDecimalStrings } from '../../engine/validation/decimal-strings.ts';
import { applyInitialState, assertDeletable, assertPlainWriteAllowed, transitionFor } from './workflow-rules.ts';
import { checkLinkFilters } from './link-filter-check.ts';
import { writeLines } from './line-writer.ts';
import { ListAnswerCache, DEFAULT_LIST_CACHE_BYTES } from './list-answer-cache.ts';
import { ListStatementCache } from './list-statement-cache.ts';
import { forgetSiteSettings } from '../settings/site-settings.ts';
import { bodyError, describeErrors, encodeColumns, isEmpty, notFound, uniqueFields, uniqueFieldsOfLines, uniqueLabels, withDefaults } from './record-values.ts';

type Row = Record<string, unknown>;
type EB = ExpressionBuilder<any, any>;
export type WriteListener = (trx: Kysely<any>, event: WriteEvent) => Promise<void>;
/** Runs after the write's transaction committed; for side effects that must not happen on rollback (socket events). */
export type CommitListener = (event: WriteEvent) => void;
/**
 * Runs inside a workflow action's transaction, after the status moved: what an
 * action does besides moving the status (posting, reversing) belongs here.
 */
/** Fills server-derived values into a create's or update's input; `before` is the stored record with its lines (null on create). */
export type Preparer = (entity: EntitySchema, input: Row, before: Row | null) => void;
export type ActionListener = (trx: Kysely<any>, event: ActionEvent) => Promise<void>;
/**
 * Fills defaults that need the database or the caller (a document's issuing company) into a create's
 * body before it is judged, so a required field they give need not be sent. Reads through `k`, outside
 * the write's transaction; mutates `body` (a copy of what was sent). May answer, for a field it could not
 * fill, the problem to report instead of its plain `required` error (with the body's other problems).
 */
export type CreateDefaulter = (k: Kysely<any>, entity: EntitySchema, body: Row, ctx: RequestContext) => Promise<FieldError[] | void>;
export type UpdateDefaulter = (entity: EntitySchema, id: number, body: Row, ctx: RequestContext) => Promise<void>;
export interface ActionEvent {
  entity: EntitySchema;
  id: number;
  action: string;
  from: string;
  to: string;
  before: Row;
  after: Row;
  body: Row;
  ctx: RequestContext;
}

export interface ListResult {
  rows: Row[];
  total?: number;
}

const ALIAS = 't';
/** A value no id or scope filter can hold; it marks the id's parameter slot in a cached compiled query. */
export const ID_MARKER = -987_654_321_987;
const ROW_QUERY_CACHE = 1000;
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** How a list's rows (and total) become its answer; answers made by frames of one name must be made alike. */
export interface AnswerFrame {
  name: string;
  make(rows: Buffer, total: number | undefined): Buffer;
}

/**
 * Generic reads and writes for every entity, driven by its schema.
 * Every write runs in one transaction with its lines and its audit rows.
 */
export class EntityService {
  readonly validators: ValidatorCache;
  /** Set by the file routes: may this caller point a file/image field at this stored file? */
  fileGuard: ((ctx: RequestContext, ref: string) => Promise<boolean>) | null = null;
  private readonly listeners: WriteListener[] = [];
  private readonly commitListeners: CommitListener[] = [];
  private readonly actionListeners: ActionListener[] = [];
  private readonly preparers: Preparer[] = [];
  private readonly createDefaulters: CreateDefaulter[] = [];
  private readonly updateDefaulters: UpdateDefaulter[] = [];
  /** Events of the transaction in progress per Kysely transaction object, announced after commit. */
  private readonly pending = new WeakMap<object, WriteEvent[]>();
  /** Work left for the end of the transaction in progress (beforeCommit), per Kysely transaction object. */
  private readonly lastSteps = new WeakMap<object, (() => Promise<void>)[]>();
  private readonly compileCtx: CompileContext;
  private readonly listStatements = new ListStatementCache(ROW_QUERY_CACHE);
  /** List answers kept until their tables change; null where the database cannot say when they do (PostgreSQL). */
  readonly answers: ListAnswerCache | null;

  constructor(
    readonly db: Database,
    readonly registry: SchemaRegistry,
    public policy: AccessPolicy = allowEverything,
    listCacheBytes = DEFAULT_LIST_CACHE_BYTES,
  ) {
    this.validators = new ValidatorCache(registry);
    this.compileCtx = { adapter: db.adapter, entity: (n) => registry.get(n) };
    this.answers = db.changes && listCacheBytes > 0 ? new ListAnswerCache(db.changes, listCacheBytes) : null;
  }

  onWrite(listener: WriteListener): void {
    this.listeners.push(listener);
  }

  afterCommit(listener: CommitListener): void {
    this.commitListeners.push(listener);
  }

  onAction(listener: ActionListener): void {
    this.actionListeners.push(listener);
  }

  /** Values the server derives from the rest of a write (a document's totals), before it is judged and stored. */
  onPrepare(preparer: Preparer): void {
    this.preparers.push(preparer);
  }

  /** Defaults a create's body takes before it is judged (see CreateDefaulter). */
  onCreateDefaults(defaulter: CreateDefaulter): void {
    this.createDefaulters.push(defaulter);
  }

  /** Values an update's body takes before it is judged, read outside the write's transaction (document fills). */
  onUpdateDefaults(defaulter: UpdateDefaulter): void {
    this.updateDefaulters.push(defaulter);
  }

  /**
   * Each body that is an object, copied, with the create defaults filled in (anything else as sent: the
   * validator refuses it), and the problems to report for fields they could not fill.
   */
  private async withCreateDefaults(entity: EntitySchema, bodies: unknown[], ctx: RequestContext): Promise<{ body: unknown; hints: FieldError[] }[]> {
    return Promise.all(bodies.map(async (sent) => {
      if (!this.createDefaulters.length || !sent || typeof sent !== 'object' || Array.isArray(sent)) return { body: sent, hints: [] };
      const body = { ...(sent as Row) };
      const hints: FieldError[] = [];
      for (const d of this.createDefaulters) hints.push(...((await d(this.db.kysely, entity, body, ctx)) ?? []));
      return { body, hints };
    }));
  }

  /** Reads linked rows as the caller may see them, for link checks and fills (never more than a list would show). */
  private linkedRead(trx: Kysely<any>, ctx: RequestContext): LinkedRead {
    return async (target, id, field) => {
      if (!Number.isSafeInteger(id) || !this.policy.canReadField(ctx, target, field, false)) return undefined;
      const row = await this.loadRow(trx, target, id, ctx, field === 'id' ? [['id']] : [['id'], [field]]);
      return row ? { value: row[field] } : undefined;
    };
  }

  /** The ids of a linked entity the caller may see, as linkedRead of `id` judges one. */
  private linkedIds(trx: Kysely<any>, ctx: RequestContext): LinkedIds {
    return async (target, ids) => {
      const safe = ids.filter((id) => Number.isSafeInteger(id));
      if (!safe.length || !this.policy.canReadField(ctx, target, 'id', false)) return new Set();
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

  /** The fields a create or update really changes, judged against the defaults (create) or the stored record. */
  private changes(entity: EntitySchema, before: Row | null, input: Row, ctx: RequestContext): string[] {
    return changedFields(entity, before ?? withDefaults(entity, {}, false, ctx.userId), input, this.lookup);
  }

  /** The merged schema of an entity; NOT_FOUND for a name no schema file defines. */
  readonly lookup = (name: string): EntitySchema => this.entity(name);

  entity(name: string): EntitySchema {
    const e = this.registry.get(name);
    if (!e) throw new AppError('NOT_FOUND', `There is no entity "${name}"`);
    return e;
  }

  /** Links are followed inside the caller's row scope: a visible row never reveals a linked row the caller may not see. */
  private compileContext(ctx: RequestContext): CompileContext {
    return { ...this.compileCtx, scope: (e) => this.policy.rowFilter(ctx, e) };
  }

  resolver(ctx: RequestContext): FieldResolver {
    return { entity: (n) => this.registry.get(n), canRead: (e, f, viaLink) => this.policy.canReadField(ctx, e, f, viaLink) };
  }

  parseQuery(entity: EntitySchema, raw: RawListQuery, ctx: RequestContext, extra?: ReadonlySet<string>): ListQuery {
    return parseListQuery(raw, entity, this.resolver(ctx), extra);
  }

  private where(eb: EB, entity: EntitySchema, ctx: RequestContext, query: Pick<ListQuery, 'filter' | 'search'> | null): Expression<SqlBool> {
    const parts: Expression<SqlBool>[] = [];
    const soft = softDeleteColumn(entity);
    // a literal, not a parameter: SQLite matches a bound value against the partial unique indexes'
    // `where is_deleted = 0`, and a statement whose plan looked at a bound value is compiled again
    // on every run (sqlite3Reprepare was about 9 % of a list's instructions)
    if (soft) parts.push(sql<SqlBool>`${sql.ref(`${ALIAS}.${soft}`)} = 0`);
    const cc = this.compileContext(ctx);
    const scope = this.policy.rowFilter(ctx, entity);
    if (scope) parts.push(compileFilter(eb, scope, entity, ALIAS, cc));
    if (query?.filter) parts.push(compileFilter(eb, query.filter, entity, ALIAS, cc));
    const found = query?.search ? compileSearch(eb, entity, ALIAS, query.search, cc, (e, f) => this.policy.canReadField(ctx, e, f, true)) : null;
    if (found) parts.push(found);
    return eb.and(parts);
  }

  /** Column definitions per merged schema object; a new override version brings new objects, so this never goes stale. */
  private readonly columnCache = new WeakMap<EntitySchema, { defs: Map<string, FieldDef>; paths: string[][]; decode: (r: Row) => Row }>();

  private columnsOf(entity: EntitySchema): { defs: Map<string, FieldDef>; paths: string[][]; decode: (r: Row) => Row } {
    let c = this.columnCache.get(entity);
    if (!c) {
      const defs = columnDefs(entity);
      c = { defs, paths: [...defs.keys()].map((k) => [k]), decode: rowDecoder(defs, softDeleteColumn(entity)) };
      this.columnCache.set(entity, c);
    }
    return c;
  }

  private selection(entity: EntitySchema, fields: string[][] | null): { paths: string[][]; defs: Map<string, FieldDef>; decode: (r: Row) => Row } {
    const cached = this.columnsOf(entity);
    if (!fields) return cached;
    const defs = new Map(cached.defs);
    const paths = fields.some((p) => p.length === 1 && p[0] === 'id') ? fields : [['id'], ...fields];
    for (const p of paths) {
      if (p.length === 1) continue;
      let e = entity;
      let f: FieldDef | undefined;
      for (const step of p) { f = describeField(e, step); if (f?.entity && f.type === 'link') e = this.registry.get(f.entity) ?? e; }
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

  async list(entityName: string, query: ListQuery, ctx: RequestContext): Promise<ListResult> {
    const entity = this.entity(entityName);
    this.policy.assertAllowed(ctx, entity, 'read');
    const { paths, decode } = this.selection(entity, query.fields);
    const compiled = this.listStatement(entity, query, ctx, '', (eb) => this.selectExpressions(eb, entity, paths, ctx));
    const { rows } = await this.db.kysely.executeQuery<Row>(compiled);
    const result: ListResult = { rows: rows.map(decode) };
    if (query.withTotal) result.total = await this.count(entity, query, ctx);
    return result;
  }

  /**
   * A list's answer made from its page as the JSON of its rows (`[...]`, UTF-8 bytes) and the
   * total when asked for: `frame.make` puts them together, and must depend on nothing but those,
   * the query's page, limit and offset, and `frame.name` (kept answers are found by it). The database writes the rows as the API's JSON where its
   * dialect can (SQLite): the same rows and values as `list`, without building a JavaScript object
   * per row only to stringify it. Null where it cannot (another dialect, or a field reached through
   * a link); the caller then uses `list`.
   *
   * The answer is kept (list-answer-cache.ts) until a table its statements read changes, and the
   * same Buffer is handed out again meanwhile.
   */
  async listJson(entityName: string, query: ListQuery, ctx: RequestContext, frame: AnswerFrame): Promise<Buffer | null> {
    const entity = this.entity(entityName);
    this.policy.assertAllowed(ctx, entity, 'read');
    const adapter = this.db.adapter;
    if (!adapter.rowJson) return null;
    const { paths, defs } = this.selection(entity, query.fields);
    if (paths.some((p) => p.length > 1)) return null;
    const soft = softDeleteColumn(entity);
    const compiled = this.listStatement(entity, query, ctx, 'json', () =>
      [sql.raw(adapter.rowJson!(ALIAS, paths.filter((p) => p[0] !== soft).map((p) => [p[0]!, defs.get(p[0]!)] as const))).as('j')] as never);
    const counted = query.withTotal ? this.countStatement(entity, query, ctx) : null;
    const found = this.answers?.lookup(counted ? [compiled, counted] : [compiled], `${frame.name}/${query.page}/${query.limit}/${query.offset}`);
    if (found && 'answer' in found) return found.answer;
    const { rows } = await this.db.kysely.executeQuery<{ j: Buffer }>(compiled);
    const parts: Buffer[] = [OPEN];
    for (let i = 0; i < rows.length; i++) {
      if (i) parts.push(COMMA);
      parts.push(rows[i]!.j);
    }
    parts.push(CLOSE);
    const answer = frame.make(Buffer.concat(parts), counted ? await this.countOf(counted) : undefined);
    return found?.read ? this.answers!.set(found.read, answer) : answer;
  }

  /** A list page's statement, kept by its shape (`variant` names what it selects beyond the shape). */
  private listStatement(entity: EntitySchema, query: ListQuery, ctx: RequestContext, variant: string, select: (eb: EB) => never): CompiledQuery {
    const k = this.db.kysely;
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
    const key = this.listStatements.keyOf(variant ? `${entity.name}\u0000${variant}` : entity.name, this.registry.version, ctx.userId, this.policy.rowFilter(ctx, entity), query, searchesThroughLinks(entity));
    return key ? this.listStatements.statement(key, query.limit, query.offset, build) : build(query.limit, query.offset);
  }

  /** A list's count, kept by the list's shape like its page (its sort and fields make more keys than needed, never a wrong one). */
  private countStatement(entity: EntitySchema, query: ListQuery, ctx: RequestContext): CompiledQuery {
    const build = () => this.db.kysely.selectFrom(`${entity.name} as ${ALIAS}`)
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => this.where(eb as EB, entity, ctx, query))
      .compile();
    const key = this.listStatements.keyOf(`${entity.name}\u0000count`, this.registry.version, ctx.userId, this.policy.rowFilter(ctx, entity), query, searchesThroughLinks(entity));
    return key ? this.listStatements.once(key, build) : build();
  }

  private async countOf(statement: CompiledQuery): Promise<number> {
    const { rows } = await this.db.kysely.executeQuery<{ n: number | string | bigint }>(statement);
    return Number(rows[0]?.n ?? 0);
  }

  private count(entity: EntitySchema, query: ListQuery, ctx: RequestContext): Promise<number> {
    return this.countOf(this.countStatement(entity, query, ctx));
  }

  /**
   * Reading one row by id has one shape per entity, field list and caller scope (a record's lines,
   * one per line entity); only the id changes. Its compiled SQL is kept by that shape and the id is put in the parameter slot that
   * a marker value took when it was compiled.
   */
  private readonly rowQueries = new Map<string, { compiled: CompiledQuery; idSlot: number }>();

  private async loadRow(k: Kysely<any>, entity: EntitySchema, id: number, ctx: RequestContext, fields: string[][] | null = null): Promise<Row | undefined> {
    const { paths, decode } = this.selection(entity, fields);
    const build = (idValue: number) => k.selectFrom(`${entity.name} as ${ALIAS}`)
      .select((eb) => this.selectExpressions(eb as EB, entity, paths, ctx))
      .where((eb) => eb.and([eb(`${ALIAS}.id`, '=', idValue), this.where(eb as EB, entity, ctx, null)]));
    // links read through dotted fields carry their targets' scopes, which the key below does not name
    if (paths.some((p) => p.length > 1)) {
      const row = await build(id).executeTakeFirst();
      return row ? decode(row) : undefined;
    }
    const scope = this.policy.rowFilter(ctx, entity);
    const key = ['row', entity.name, this.registry.version, fields ? JSON.stringify(fields) : '*', ctx.userId ?? 'system', scope ? JSON.stringify(scope) : ''].join('\u0000');
    const { rows } = await k.executeQuery<Row>(this.byIdStatement(key, id, (marker) => build(marker).compile()));
    return rows[0] ? decode(rows[0]) : undefined;
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

  private async loadLines(k: Kysely<any>, entity: EntitySchema, id: number, only?: string[][] | null): Promise<Row> {
    const reads: Promise<[string, Row[]]>[] = [];
    for (const [name, f] of Object.entries(entity.fields)) {
      if (f.type !== 'lines') continue;
      if (only && !only.some((p) => p[0] === name)) continue;
      const child = this.entity(f.entity!);
      const { decode } = this.columnsOf(child);
      // a record's lines have one statement per line entity and schema version, whoever reads them
      const statement = this.byIdStatement(['lines', child.name, this.registry.version].join('\u0000'), id,
        (marker) => k.selectFrom(child.name).selectAll().where(child.parent!.field, '=', marker).orderBy('line_no').orderBy('id').compile());
      reads.push(k.executeQuery<Row>(statement).then(({ rows }) => [name, rows.map(decode)]));
    }
    return Object.fromEntries(await Promise.all(reads));
  }

  async get(entityName: string, id: number, ctx: RequestContext, fields: string[][] | null = null): Promise<Row> {
    const entity = this.entity(entityName);
    this.policy.assertAllowed(ctx, entity, 'read');
    // on PostgreSQL the row and its lines come over two pooled connections at once; lines of a row the caller may not see are dropped unread
    const [row, lines] = await Promise.all([
      this.loadRow(this.db.kysely, entity, id, ctx, fields?.filter((p) => describeField(entity, p[0]!)?.type !== 'lines') ?? null),
      this.loadLines(this.db.kysely, entity, id, fields),
    ]);
    if (!row) throw notFound(entity, id);
    return { ...row, ...lines };
  }

  /** `unfilled`: required fields a create default could not fill, reported with the body's own problems (in place of what it says of them: missing, or null). */
  private checkBody(entity: EntitySchema, mode: 'create' | 'replace' | 'patch', body: unknown, current?: Row, unfilled: FieldError[] = []): void {
    const found = this.validators.get(entity, mode)(body, current);
    const errors = unfilled.length ? [...found.filter((e) => !unfilled.some((u) => u.field === e.field)), ...unfilled] : found;
    if (!errors.length) return;
    throw bodyError(errors);
  }

  private assertWritable(entity: EntitySchema, action: CrudAction): void {
    if (entity.kind === 'lines') throw new AppError('METHOD_NOT_ALLOWED', `Lines of ${entity.parent!.entity} are written through their ${entity.parent!.entity}`);
    if (entity.kind === 'ledger' && action !== 'create') throw new AppError('METHOD_NOT_ALLOWED', `${entity.name} is a ledger: entries are never changed or deleted, post a correcting entry instead`);
  }

  /** `serverValues` are set by the server itself (an amendment's link to its original), after the body was validated. */
  async create(entityName: string, body: unknown, ctx: RequestContext, serverValues: Row = {}): Promise<Row> {
    return (await this.createMany(entityName, [body], ctx, serverValues))[0]!;
  }

  /**
   * Creates several rows all-or-nothing: every body is validated and checked
   * against the caller's scope before anything is written, so one invalid or
   * forbidden row refuses the whole request.
   */
  async createMany(entityName: string, bodies: unknown[], ctx: RequestContext, serverValues: Row = {}): Promise<Row[]> {
    const entity = this.entity(entityName);
    this.assertWritable(entity, 'create');
    this.policy.assertAllowed(ctx, entity, 'create');
    const trusted = isSystem(ctx);
    const filled = await this.withCreateDefaults(entity, bodies, ctx);
    const inputs = filled.map(({ body: sent, hints }, i) => {
      const body = normalizeDecimalStrings(entity, sent, (n) => this.registry.get(n));
      try {
        this.checkBody(entity, 'create', body, undefined, hints);
        const input = { ...withDefaults(entity, body as Row, false, ctx.userId), ...serverValues };
        applyInitialState(entity, input, body as Row, trusted);
        for (const p of this.preparers) p(entity, input, null);
        this.policy.assertWritableRow(ctx, entity, input, 'create');
        this.policy.assertFieldWrites(ctx, entity, input, this.changes(entity, null, input, ctx));
        return input;
      } catch (err) {
        throw bodies.length > 1 && err instanceof AppError ? new AppError(err.code, `item ${i}: ${err.message}`, { index: i, ...(err.details as object | undefined) }) : err;
      }
    });
    // file checks read through the service, so they run before the transaction takes SQLite's only connection
    for (const input of inputs) await this.checkFiles(ctx, entity, input, null);
    return this.transaction(entity, async (trx) => {
      const out: Row[] = [];
      const read = this.linkedRead(trx, ctx);
      for (const input of inputs) {
        await checkLinks(this.linkedIds(trx, ctx), this.lookup, entity, input);
        await this.policy.guardWrite(trx, ctx, entity, null, input);
        await checkLinkFilters(trx, this.lookup, entity, input);
        await applyFills(read, this.lookup, entity, input, input);
        // drawn as late as the insert allows: the series row stays locked until commit, and creations of the series wait for it
        const numbered = entity.numbering?.field;
        if (numbered && isEmpty(input[numbered]) && entity.numbering!.assignOn !== 'post') input[numbered] = await nextNumber(trx, entity, input);
        const now = new Date().toISOString();
        const values = { ...encodeColumns(entity, input), created_at: now, updated_at: now, created_by: ctx.userId, updated_by: ctx.userId };
        const inserted = await trx.insertInto(entity.name).values(values).returning('id').executeTakeFirstOrThrow();
        const id = Number(inserted.id);
        await writeLines(trx, this.lookup, entity, id, input, ctx, true);
        const after = await this.readWhole(trx, entity, id);
        await this.emit(trx, { entity: entity.name, id, action: 'create', before: null, after, ctx });
        out.push(after);
      }
      return out;
    });
  }

  async update(entityName: string, id: number, body: unknown, ctx: RequestContext, mode: 'replace' | 'patch'): Promise<Row> {
    const entity = this.entity(entityName);
    this.assertWritable(entity, 'update');
    this.policy.assertAllowed(ctx, entity, 'update');
    if (this.fileGuard && body && typeof body === 'object' && Object.entries(entity.fields).some(([n, f]) => (f.type === 'file' || f.type === 'image') && n in (body as Row))) {
      // before the transaction: the check reads through the service (one SQLite connection)
      await this.checkFiles(ctx, entity, body as Row, (await this.loadRow(this.db.kysely, entity, id, ctx)) ?? null);
    }
    if (this.updateDefaulters.length && body && typeof body === 'object' && !Array.isArray(body)) {
      body = { ...(body as Row) };
      for (const d of this.updateDefaulters) await d(entity, id, body as Row, ctx);
    }
    return this.transaction(entity, async (trx) => {
      const before = await this.loadRow(trx, entity, id, ctx);
      if (!before) throw notFound(entity, id);
      const data = normalizeDecimalStrings(entity, body, (n) => this.registry.get(n));
      this.checkBody(entity, mode, data, before);
      const input = mode === 'replace' ? withDefaults(entity, data as Row, true, ctx.userId) : { ...(data as Row) };
      // a replace that leaves out the numbering or status field keeps what the record has
      for (const kept of [entity.numbering?.field, entity.workflow?.field]) {
        if (mode === 'replace' && kept && !(kept in (data as Row))) delete input[kept];
      }
      this.policy.assertWritableRow(ctx, entity, { ...before, ...input }, 'update');
      const beforeWhole = { ...before, ...(await this.loadLines(trx, entity, id)) };
      for (const p of this.preparers) p(entity, input, beforeWhole);
      const changed = this.changes(entity, beforeWhole, input, ctx);
      this.policy.assertFieldWrites(ctx, entity, beforeWhole, changed);
      assertPlainWriteAllowed(entity, beforeWhole, changed, isSystem(ctx));
      const read = this.linkedRead(trx, ctx);
      await checkLinks(this.linkedIds(trx, ctx), this.lookup, entity, input, new Set(changed));
      await checkLinkFilters(trx, this.lookup, entity, { ...before, ...input }, before);
      await this.policy.guardWrite(trx, ctx, entity, beforeWhole, { ...beforeWhole, ...input });
      await applyFills(read, this.lookup, entity, input, data as Row);
      const columns = encodeColumns(entity, input);
      await trx.updateTable(entity.name)
        .set({ ...columns, updated_at: new Date().toISOString(), updated_by: ctx.userId })
        .where('id', '=', id).execute();
      await writeLines(trx, this.lookup, entity, id, input, ctx);
      const after = await this.readWhole(trx, entity, id);
      await this.emit(trx, { entity: entity.name, id, action: 'update', before: beforeWhole, after, ctx });
      return after;
    });
  }

  async remove(entityName: string, id: number, ctx: RequestContext): Promise<void> {
    const entity = this.entity(entityName);
    this.assertWritable(entity, 'delete');
    this.policy.assertAllowed(ctx, entity, 'delete');
    await this.transaction(entity, async (trx) => {
      const before = await this.loadRow(trx, entity, id, ctx);
      if (!before) throw notFound(entity, id);
      this.policy.assertWritableRow(ctx, entity, before, 'delete');
      assertDeletable(entity, before, isSystem(ctx));
      await this.policy.guardWrite(trx, ctx, entity, before, null);
      const soft = softDeleteColumn(entity);
      if (soft) {
        await trx.updateTable(entity.name).set({ [soft]: 1, updated_at: new Date().toISOString(), updated_by: ctx.userId }).where('id', '=', id).execute();
      } else {
        await trx.deleteFrom(entity.name).where('id', '=', id).execute();
      }
      await this.emit(trx, { entity: entity.name, id, action: 'delete', before, after: null, ctx });
    });
  }

  /**
   * A workflow action: moves the status along a declared transition, with the
   * transition's own fields from the body, in one transaction with whatever
   * the action listeners do (posting, reversing) and the audit row.
   */
  async runAction(entityName: string, id: number, action: string, body: unknown, ctx: RequestContext): Promise<Row> {
    const entity = this.entity(entityName);
    const w = entity.workflow;
    if (!w || entity.kind === 'lines') throw new AppError('NOT_FOUND', `${entity.label.en} has no actions`);
    this.policy.assertAllowed(ctx, entity, 'update');
    const sent = (body ?? {}) as Row;
    if (typeof sent !== 'object' || Array.isArray(sent)) throw new AppError('BAD_REQUEST', 'Send the action\'s fields as a JSON object, or no body');
    return this.transaction(entity, async (trx) => {
      const before = await this.loadRow(trx, entity, id, ctx);
      if (!before) throw notFound(entity, id);
      const t = transitionFor(entity, action, before[w.field]);
      if (t.permission && !this.policy.can(ctx, t.permission, 'edit')) {
        throw new AppError('FORBIDDEN', `Your role may not ${t.label.en.toLowerCase()} ${entity.labelPlural?.en ?? entity.label.en} (needs edit on ${t.permission})`);
      }
      const extra = Object.keys(sent).filter((k) => !(t.fields ?? []).includes(k));
      if (extra.length) {
        throw new AppError('UNKNOWN_FIELD', `"${t.label.en}" takes ${t.fields?.length ? `only ${t.fields.join(', ')}` : 'no fields'}; not ${extra.join(', ')}`, {
          fields: extra.map((field) => ({ field, code: 'unknown_field', message: 'is not a field of this action' })),
        });
      }
      this.checkBody(entity, 'patch', sent, before);
      const input: Row = { ...sent, [w.field]: t.to };
      this.policy.assertWritableRow(ctx, entity, { ...before, ...input }, 'update');
      const fields = Object.keys(sent);
      // the status counts as changed: a role that may not change it (the portal's customer) may not run actions either
      this.policy.assertFieldWrites(ctx, entity, before, [w.field, ...this.changes(entity, before, sent, ctx).filter((f) => fields.includes(f))]);
      const beforeWhole = { ...before, ...(await this.loadLines(trx, entity, id)) };
      const stamp = { updated_at: new Date().toISOString(), updated_by: ctx.userId };
      await trx.updateTable(entity.name)
        .set({ ...encodeColumns(entity, sent), [w.field]: t.to, ...stamp })
        .where('id', '=', id).execute();
      // an action without fields (a posting) changed only the status and the stamp: its listeners get the document as read
      // before with those, and it is read once after them
      let after = fields.length ? await this.readWhole(trx, entity, id) : { ...beforeWhole, [w.field]: t.to, ...stamp };
      const event: ActionEvent = { entity, id, action, from: String(before[w.field]), to: t.to, before: beforeWhole, after, body: sent, ctx };
      for (const l of this.actionListeners) await l(trx, event);
      if (this.actionListeners.length || !fields.length) after = await this.readWhole(trx, entity, id);
      await this.emit(trx, { entity: entity.name, id, action: 'update', before: beforeWhole, after, ctx, workflowAction: action });
      return after;
    });
  }

  private async readWhole(trx: Kysely<any>, entity: EntitySchema, id: number): Promise<Row> {
    const row = await this.loadRow(trx, entity, id, { userId: null, ip: null });
    return { ...row, ...(await this.loadLines(trx, entity, id)) };
  }

  private async emit(trx: Kysely<any>, event: WriteEvent): Promise<void> {
    // the listeners judge the settings as this write left them
    if (event.entity === 'setting_site') forgetSiteSettings(trx);
    for (const l of this.listeners) await l(trx, event);
    this.pending.get(trx)?.push(event);
  }


  /**
   * Runs `step` as one of the last statements of the write's transaction: after the other
   * listeners, the re-read and the audit row, just before commit, in the order asked. For
   * statements that lock rows other writers queue for (stock balances): taken last, their locks
   * are held for a round trip or two instead of for the rest of the write. A failing step rolls
   * back the whole write as before. In a transaction this service did not open, it runs at once.
   */
  async beforeCommit(trx: Kysely<any>, step: () => Promise<void>): Promise<void> {
    const steps = this.lastSteps.get(trx);
    if (steps) steps.push(step);
    else await step();
  }

  /** Runs a write in one transaction and turns constraint failures into catalogue errors. */
  async transaction<T>(entity: EntitySchema, work: (trx: Kysely<any>) => Promise<T>): Promise<T> {
    const events: WriteEvent[] = [];
    let result: T;
    try {
      result = await this.db.kysely.transaction().execute(async (trx) => {
        this.pending.set(trx, events);
        const steps: (() => Promise<void>)[] = [];
        this.lastSteps.set(trx, steps);
        const done = await work(trx);
        // a step may ask for another one; it runs after those asked before it
        for (let i = 0; i < steps.length; i++) await steps[i]!();
        this.lastSteps.delete(trx);
        return done;
      });
    } catch (err) {
      throw this.translate(entity, err);
    }
    for (const e of events) for (const l of this.commitListeners) l(e);
    return result;
  }

  private translate(entity: EntitySchema, err: unknown): unknown {
    if (err instanceof AppError) return err;
    const unique = this.db.adapter.uniqueViolation(err);
    if (unique) {
      const fields = uniqueFields(entity, unique.index) ?? uniqueFieldsOfLines(this.registry, entity, unique.index);
      const names = fields?.join(', ') ?? 'a unique field';
      return new AppError('CONFLICT', `Another ${entity.label.en} already has this ${names}`, {
        fields: (fields ?? []).map((field) => ({ field, code: 'unique', message: 'is already used by another record' })),
      }, { entity: entity.label, fields: uniqueLabels(entity, fields) });
    }
    if (this.db.adapter.isForeignKeyViolation(err)) {
      return new AppError('IN_USE', `This ${entity.name} is still used by other records, so it cannot be removed; archive it or remove those records first`, undefined, { entity: entity.label });
    }
    return err;
  }

  /** File and image fields may only be set to files the writer may read (unchanged values are not re-checked). */
  private async checkFiles(ctx: RequestContext, entity: EntitySchema, input: Row, before: Row | null): Promise<void> {
    if (!this.fileGuard) return;
    const errors: FieldError[] = [];
    for (const [name, f] of Object.entries(entity.fields)) {
      if (f.type !== 'file' && f.type !== 'image') continue;
      const v = input[name];
      if (v === null || v === undefined || v === '' || (before && before[name] === v)) continue;
      if (!(await this.fileGuard(ctx, String(v)))) errors.push({ field: name, code: 'file', message: 'is not a file you uploaded or may see; upload it first' });
    }
    if (errors.length) throw new AppError('VALIDATION_FAILED', describeErrors(errors), { fields: errors });
  }


}


export type { FilterNode };
