import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { softDeleteColumn } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { normalizeDecimalStrings } from '../../engine/validation/decimal-strings.ts';
import type { WriteMode } from '../../engine/validation/entity-json-schema.ts';
import { AppError } from '../errors/app-error.ts';
import { isSystem, type CrudAction, type RequestContext } from './access-policy.ts';
import { ValidatorCache } from './validator-cache.ts';
import { assignNumber, nextNumber } from './numbering-series.ts';
import { applyFills, checkLinks } from './link-values.ts';
import { changedFields } from './changed-fields.ts';
import { applyInitialState, assertDeletable, assertPlainWriteAllowed } from './workflow-rules.ts';
import { checkLinkFilters } from './link-filter-check.ts';
import { writeLines } from './line-writer.ts';
import { bodyError, describeErrors, encodeColumns, isEmpty, notFound, withDefaults } from './record-values.ts';
import type { EntityReader } from './entity-reader.ts';
import type { WriteEvents } from './write-events.ts';
import type { ServiceCore } from './service-core.ts';

type Row = Record<string, unknown>;
/** May this caller point a file/image field at this stored file? Set by the file routes. */
export type FileGuard = (ctx: RequestContext, ref: string) => Promise<boolean>;
/** More work in a create's transaction, after the row is written (a sale posted as it is made); answers the row to return. */
export type WithinCreate = (trx: Kysely<any>, created: Row) => Promise<Row>;

/**
 * The writing part of the generic service: create (one or several, all or nothing), update
 * (replace or patch) and delete, each in one transaction with its lines, its write listeners
 * and its audit row (write-events.ts).
 */
export class EntityWriter {
  readonly validators: ValidatorCache;
  fileGuard: FileGuard | null = null;

  constructor(private readonly core: ServiceCore, private readonly reader: EntityReader, private readonly events: WriteEvents) {
    this.validators = new ValidatorCache(core.registry);
  }

  /** The fields a create or update really changes, judged against the defaults (create) or the stored record. */
  changes(entity: EntitySchema, before: Row | null, input: Row, ctx: RequestContext): string[] {
    return changedFields(entity, before ?? withDefaults(entity, {}, false, ctx.userId), input, this.core.lookup);
  }

  /** `unfilled`: required fields a create default could not fill, reported with the body's own problems (in place of what it says of them: missing, or null). */
  checkBody(entity: EntitySchema, mode: WriteMode, body: unknown, current?: Row, unfilled: FieldError[] = []): void {
    const found = this.validators.get(entity, mode)(body, current);
    const errors = unfilled.length ? [...found.filter((e) => !unfilled.some((u) => u.field === e.field)), ...unfilled] : found;
    if (!errors.length) return;
    throw bodyError(errors);
  }

  private assertWritable(entity: EntitySchema, action: CrudAction): void {
    if (entity.kind === 'lines') throw new AppError('METHOD_NOT_ALLOWED', `Lines of ${entity.parent!.entity} are written through their ${entity.parent!.entity}`);
    if (entity.kind === 'ledger' && action !== 'create') throw new AppError('METHOD_NOT_ALLOWED', `${entity.name} is a ledger: entries are never changed or deleted, post a correcting entry instead`);
  }

  /**
   * Each body that is an object, copied, with the create defaults filled in (anything else as sent: the
   * validator refuses it), and the problems to report for fields they could not fill.
   */
  private async withCreateDefaults(entity: EntitySchema, bodies: unknown[], ctx: RequestContext): Promise<{ body: unknown; hints: FieldError[] }[]> {
    const defaulters = this.events.createDefaulters;
    return Promise.all(bodies.map(async (sent) => {
      if (!defaulters.length || !sent || typeof sent !== 'object' || Array.isArray(sent)) return { body: sent, hints: [] };
      const body = { ...(sent as Row) };
      const hints: FieldError[] = [];
      for (const d of defaulters) hints.push(...((await d(this.core.db.kysely, entity, body, ctx)) ?? []));
      return { body, hints };
    }));
  }

  /**
   * Creates several rows all-or-nothing: every body is validated and checked
   * against the caller's scope before anything is written, so one invalid or
   * forbidden row refuses the whole request.
   * `serverValues` are set by the server itself (an amendment's link to its original), after the body was validated.
   */
  async createMany(entity: EntitySchema, bodies: unknown[], ctx: RequestContext, serverValues: Row = {}, within?: WithinCreate): Promise<Row[]> {
    const { policy, registry } = this.core;
    this.assertWritable(entity, 'create');
    policy.assertAllowed(ctx, entity, 'create');
    const trusted = isSystem(ctx);
    const item = <T>(i: number, step: () => T): T => {
      try {
        return step();
      } catch (err) {
        throw bodies.length > 1 && err instanceof AppError ? new AppError(err.code, `item ${i}: ${err.message}`, { index: i, ...(err.details as object | undefined) }) : err;
      }
    };
    // the write pipeline's first step (docs/architecture.md): the body as sent is judged against the schema before
    // any fill or default computes from it (a due date from "2026-13-01" would throw, not answer 400)
    const shaped = bodies.map((sent, i) => item(i, () => {
      const body = normalizeDecimalStrings(entity, sent, (n) => registry.get(n));
      this.checkBody(entity, 'shape', body);
      return body;
    }));
    const filled = await this.withCreateDefaults(entity, shaped, ctx);
    const inputs = filled.map(({ body, hints }, i) => item(i, () => {
      this.checkBody(entity, 'create', body, undefined, hints);
      const input = { ...withDefaults(entity, body as Row, false, ctx.userId), ...serverValues };
      applyInitialState(entity, input, body as Row, trusted);
      for (const p of this.events.preparers) p(entity, input, null);
      policy.assertWritableRow(ctx, entity, input, 'create');
      policy.assertFieldWrites(ctx, entity, input, this.changes(entity, null, input, ctx));
      return input;
    }));
    // file checks read through the service, so they run before the transaction takes SQLite's only connection
    for (const input of inputs) await this.checkFiles(ctx, entity, input, null);
    return this.events.transaction(entity, async (trx) => {
      const out: Row[] = [];
      const read = this.reader.linkedRead(trx, ctx);
      for (const input of inputs) {
        await checkLinks(this.reader.linkedIds(trx, ctx), this.core.lookup, entity, input);
        await policy.guardWrite(trx, ctx, entity, null, input);
        await checkLinkFilters(trx, this.core.lookup, entity, input);
        await applyFills(read, this.core.lookup, entity, input, input);
        // the series row stays locked from the draw until commit, and creations of the series wait for it: the number
        // is drawn among the last steps (after the lines, the re-read and the listeners) unless the create goes on in its
        // transaction (`within`: a posting, which needs its number)
        const numbered = entity.numbering?.field;
        const drawn = numbered && isEmpty(input[numbered]) && entity.numbering!.assignOn !== 'post';
        if (drawn && within) input[numbered] = await nextNumber(trx, entity, input);
        const now = new Date().toISOString();
        const values = { ...encodeColumns(entity, input), created_at: now, updated_at: now, created_by: ctx.userId, updated_by: ctx.userId };
        const inserted = await trx.insertInto(entity.name).values(values).returning('id').executeTakeFirstOrThrow();
        const id = Number(inserted.id);
        await writeLines(trx, this.core.lookup, entity, id, input, ctx, true);
        const after = await this.reader.readWhole(trx, entity, id);
        // asked before the write's listeners: stage settle runs in the order asked, so the audit row (asked by its listener) records the number
        if (drawn && !within) await this.events.beforeCommit(trx, async () => { after[numbered!] = await assignNumber(trx, entity, id, input); }, 'settle');
        await this.events.emit(trx, { entity: entity.name, id, action: 'create', before: null, after, ctx });
        out.push(within ? await within(trx, after) : after);
      }
      return out;
    });
  }

  async update(entity: EntitySchema, id: number, body: unknown, ctx: RequestContext, mode: 'replace' | 'patch'): Promise<Row> {
    const { policy, registry } = this.core;
    this.assertWritable(entity, 'update');
    policy.assertAllowed(ctx, entity, 'update');
    // judged as sent before the fills compute from it (write pipeline, docs/architecture.md)
    body = normalizeDecimalStrings(entity, body, (n) => registry.get(n));
    this.checkBody(entity, 'shape', body);
    if (this.fileGuard && body && typeof body === 'object' && Object.entries(entity.fields).some(([n, f]) => (f.type === 'file' || f.type === 'image') && n in (body as Row))) {
      // before the transaction: the check reads through the service (one SQLite connection)
      await this.checkFiles(ctx, entity, body as Row, (await this.reader.loadRow(this.core.db.kysely, entity, id, ctx)) ?? null);
    }
    if (this.events.updateDefaulters.length && body && typeof body === 'object' && !Array.isArray(body)) {
      body = { ...(body as Row) };
      for (const d of this.events.updateDefaulters) await d(entity, id, body as Row, ctx);
    }
    return this.events.transaction(entity, async (trx) => {
      const before = await this.reader.loadRow(trx, entity, id, ctx);
      if (!before) throw notFound(entity, id);
      const data = normalizeDecimalStrings(entity, body, (n) => registry.get(n));
      this.checkBody(entity, mode, data, before);
      const input = mode === 'replace' ? withDefaults(entity, data as Row, true, ctx.userId) : { ...(data as Row) };
      // a replace that leaves out the numbering or status field keeps what the record has
      for (const kept of [entity.numbering?.field, entity.workflow?.field]) {
        if (mode === 'replace' && kept && !(kept in (data as Row))) delete input[kept];
      }
      policy.assertWritableRow(ctx, entity, { ...before, ...input }, 'update');
      const beforeWhole = { ...before, ...(await this.reader.loadLines(trx, entity, id)) };
      for (const p of this.events.preparers) p(entity, input, beforeWhole);
      const changed = this.changes(entity, beforeWhole, input, ctx);
      policy.assertFieldWrites(ctx, entity, beforeWhole, changed);
      assertPlainWriteAllowed(entity, beforeWhole, changed, isSystem(ctx));
      const read = this.reader.linkedRead(trx, ctx);
      await checkLinks(this.reader.linkedIds(trx, ctx), this.core.lookup, entity, input, new Set(changed));
      await checkLinkFilters(trx, this.core.lookup, entity, { ...before, ...input }, before);
      await policy.guardWrite(trx, ctx, entity, beforeWhole, { ...beforeWhole, ...input });
      await applyFills(read, this.core.lookup, entity, input, data as Row);
      const columns = encodeColumns(entity, input);
      await trx.updateTable(entity.name)
        .set({ ...columns, updated_at: new Date().toISOString(), updated_by: ctx.userId })
        .where('id', '=', id).execute();
      await writeLines(trx, this.core.lookup, entity, id, input, ctx);
      const after = await this.reader.readWhole(trx, entity, id);
      await this.events.emit(trx, { entity: entity.name, id, action: 'update', before: beforeWhole, after, ctx });
      return after;
    });
  }

  async remove(entity: EntitySchema, id: number, ctx: RequestContext): Promise<void> {
    const { policy } = this.core;
    this.assertWritable(entity, 'delete');
    policy.assertAllowed(ctx, entity, 'delete');
    await this.events.transaction(entity, async (trx: Kysely<any>) => {
      const before = await this.reader.loadRow(trx, entity, id, ctx);
      if (!before) throw notFound(entity, id);
      policy.assertWritableRow(ctx, entity, before, 'delete');
      assertDeletable(entity, before, isSystem(ctx));
      await policy.guardWrite(trx, ctx, entity, before, null);
      const soft = softDeleteColumn(entity);
      if (soft) {
        await trx.updateTable(entity.name).set({ [soft]: 1, updated_at: new Date().toISOString(), updated_by: ctx.userId }).where('id', '=', id).execute();
      } else {
        await trx.deleteFrom(entity.name).where('id', '=', id).execute();
      }
      await this.events.emit(trx, { entity: entity.name, id, action: 'delete', before, after: null, ctx });
    });
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
