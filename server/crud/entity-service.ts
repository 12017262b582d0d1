import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { FieldResolver } from '../../engine/filter/filter-parser.ts';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import type { Database } from '../db/dialect-adapter.ts';
import { AppError } from '../errors/app-error.ts';
import type { ListQuery, RawListQuery } from './list-query.ts';
import { allowEverything, type AccessPolicy, type RequestContext } from './access-policy.ts';
import type { ValidatorCache } from './validator-cache.ts';
import { EntityReader, type ListResult } from './entity-reader.ts';
import { EntityWriter, type FileGuard } from './entity-writer.ts';
import { runAction, runActionIn } from './entity-actions.ts';
import { WriteEvents, type ActionListener, type CommitListener, type CreateDefaulter, type UpdateDefaulter, type EntitySelector, type Preparer, type WriteListener } from './write-events.ts';
import type { ServiceCore } from './service-core.ts';
import { AnswerSerializers } from './answer-serializers.ts';

type Row = Record<string, unknown>;

export type { ActionEvent, ActionListener, CommitListener, CreateDefaulter, UpdateDefaulter, EntitySelector, Preparer, WriteListener } from './write-events.ts';
export type { ListResult } from './entity-reader.ts';
export { ID_MARKER } from './entity-reader.ts';

/**
 * Generic reads and writes for every entity, driven by its schema: the one object the routes and
 * the features hold. It is a facade over the four parts, each in its own file:
 * - reading (entity-reader.ts): lists, counts, a record with its lines;
 * - writing (entity-writer.ts): create, update, delete, each in one transaction with its lines and its audit row;
 * - workflow actions (entity-actions.ts);
 * - write events (write-events.ts): the listeners, per entity from what its schema declares, and the transaction.
 */
export class EntityService implements ServiceCore {
  private readonly reader: EntityReader;
  private readonly writer: EntityWriter;
  private readonly events: WriteEvents;
  /** The compiled JSON writers of the generic get and list answers (answer-serializers.ts). */
  readonly answers: AnswerSerializers;

  constructor(readonly db: Database, readonly registry: SchemaRegistry, public policy: AccessPolicy = allowEverything) {
    this.reader = new EntityReader(this);
    this.answers = new AnswerSerializers(this, this.reader);
    this.events = new WriteEvents(this);
    this.writer = new EntityWriter(this, this.reader, this.events);
  }

  get validators(): ValidatorCache {
    return this.writer.validators;
  }

  /** Set by the file routes: may this caller point a file/image field at this stored file? */
  get fileGuard(): FileGuard | null {
    return this.writer.fileGuard;
  }

  set fileGuard(guard: FileGuard | null) {
    this.writer.fileGuard = guard;
  }

  /** Inside the write's transaction, for the entities `when` picks (every entity without it). */
  onWrite(listener: WriteListener, when?: EntitySelector): void {
    this.events.onWrite(listener, when);
  }

  /** After the write's transaction committed (socket events), for the entities `when` picks. */
  afterCommit(listener: CommitListener, when?: EntitySelector): void {
    this.events.afterCommit(listener, when);
  }

  /** Inside a workflow action's transaction, after the status moved, for the entities `when` picks. */
  onAction(listener: ActionListener, when?: EntitySelector): void {
    this.events.onAction(listener, when);
  }

  /** Values the server derives from the rest of a write (a document's totals), before it is judged and stored. */
  onPrepare(preparer: Preparer): void {
    this.events.preparers.push(preparer);
  }

  /** Defaults a create's body takes before it is judged (see CreateDefaulter). */
  onCreateDefaults(defaulter: CreateDefaulter): void {
    this.events.createDefaulters.push(defaulter);
  }

  /** Values an update's body takes before it is judged, read outside the write's transaction (document fills). */
  onUpdateDefaults(defaulter: UpdateDefaulter): void {
    this.events.updateDefaulters.push(defaulter);
  }

  /** The merged schema of an entity; NOT_FOUND for a name no schema file defines. */
  readonly lookup = (name: string): EntitySchema => this.entity(name);

  entity(name: string): EntitySchema {
    const e = this.registry.get(name);
    if (!e) throw new AppError('NOT_FOUND', `There is no entity "${name}"`);
    return e;
  }

  resolver(ctx: RequestContext): FieldResolver {
    return this.reader.resolver(ctx);
  }

  parseQuery(entity: EntitySchema, raw: RawListQuery, ctx: RequestContext, extra?: ReadonlySet<string>): ListQuery {
    return this.reader.parseQuery(entity, raw, ctx, extra);
  }

  /** `entity` as a merged schema: the one the caller judged the request on (a route compiles its answer's writer from it too). */
  async list(entityName: string | EntitySchema, query: ListQuery, ctx: RequestContext): Promise<ListResult> {
    const entity = typeof entityName === 'string' ? this.entity(entityName) : entityName;
    this.policy.assertAllowed(ctx, entity, 'read');
    return this.reader.list(entity, query, ctx);
  }

  async get(entityName: string | EntitySchema, id: number, ctx: RequestContext, fields: string[][] | null = null): Promise<Row> {
    const entity = typeof entityName === 'string' ? this.entity(entityName) : entityName;
    this.policy.assertAllowed(ctx, entity, 'read');
    return this.reader.get(entity, id, ctx, fields);
  }

  /** `serverValues` are set by the server itself (an amendment's link to its original), after the body was validated. */
  async create(entityName: string, body: unknown, ctx: RequestContext, serverValues: Row = {}): Promise<Row> {
    return (await this.createMany(entityName, [body], ctx, serverValues))[0]!;
  }

  /** Several rows all-or-nothing (entity-writer.ts). */
  createMany(entityName: string, bodies: unknown[], ctx: RequestContext, serverValues: Row = {}): Promise<Row[]> {
    return this.writer.createMany(this.entity(entityName), bodies, ctx, serverValues);
  }

  update(entityName: string, id: number, body: unknown, ctx: RequestContext, mode: 'replace' | 'patch'): Promise<Row> {
    return this.writer.update(this.entity(entityName), id, body, ctx, mode);
  }

  remove(entityName: string, id: number, ctx: RequestContext): Promise<void> {
    return this.writer.remove(this.entity(entityName), id, ctx);
  }

  /** A workflow action (entity-actions.ts). */
  runAction(entityName: string, id: number, action: string, body: unknown, ctx: RequestContext): Promise<Row> {
    const parts = { core: this, reader: this.reader, writer: this.writer, events: this.events };
    return runAction(parts, this.entity(entityName), id, action, body, ctx);
  }

  /**
   * Creates a row and runs a workflow action on it in the same transaction (a point-of-sale sale is made and posted
   * at once: a refused posting leaves no draft behind). `inside` runs between the two, in the transaction; what it
   * writes to the row it also sets on `created`, which the action takes as the record before it.
   */
  createAndRun(entityName: string, body: unknown, action: string, ctx: RequestContext, serverValues: Row = {}, inside?: (trx: Kysely<any>, created: Row) => Promise<void>): Promise<Row> {
    const entity = this.entity(entityName);
    const parts = { core: this, reader: this.reader, writer: this.writer, events: this.events };
    return this.writer.createMany(entity, [body], ctx, serverValues, async (trx, created) => {
      if (inside) await inside(trx, created);
      // the row was just read whole by the create (and `inside` keeps it up to date): the action does not read it again
      return runActionIn(parts, trx, entity, Number(created.id), action, {}, ctx, created);
    }).then((rows) => rows[0]!);
  }

  /** A workflow action inside a transaction the caller holds (a POS return that turns out to be the whole refund). */
  runActionIn(trx: Kysely<any>, entityName: string, id: number, action: string, body: unknown, ctx: RequestContext): Promise<Row> {
    const parts = { core: this, reader: this.reader, writer: this.writer, events: this.events };
    return runActionIn(parts, trx, this.entity(entityName), id, action, body, ctx);
  }

  /** A record with its lines as this transaction sees it, read as the system. */
  readWhole(trx: Kysely<any>, entityName: string, id: number): Promise<Row> {
    return this.reader.readWhole(trx, this.entity(entityName), id);
  }

  /**
   * A change a route of its own wrote (a POS partial return) told as an update: the write listeners and the audit
   * row, in the caller's transaction, with `action` as its workflow action.
   */
  recordUpdate(trx: Kysely<any>, entityName: string, id: number, before: Row, after: Row, ctx: RequestContext, action: string): Promise<void> {
    return this.events.emit(trx, { entity: entityName, id, action: 'update', before, after, ctx, workflowAction: action });
  }

  /**
   * A row a route of its own wrote (the credit note of a POS return) told as a creation: the write listeners and
   * the audit row, in the caller's transaction.
   */
  recordCreate(trx: Kysely<any>, entityName: string, id: number, after: Row, ctx: RequestContext): Promise<void> {
    return this.events.emit(trx, { entity: entityName, id, action: 'create', before: null, after, ctx });
  }

  /** Work for the end of the write's transaction (write-events.ts). */
  beforeCommit(trx: Kysely<any>, step: () => Promise<void>, stage: 'settle' | 'lock' = 'lock'): Promise<void> {
    return this.events.beforeCommit(trx, step, stage);
  }

  /** Runs a write in one transaction and turns constraint failures into catalogue errors. */
  transaction<T>(entity: EntitySchema, work: (trx: Kysely<any>) => Promise<T>): Promise<T> {
    return this.events.transaction(entity, work);
  }
}

export type { FilterNode };
