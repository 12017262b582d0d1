import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import type { RequestContext, WriteEvent } from './access-policy.ts';
import type { ServiceCore } from './service-core.ts';
import { constraintError } from './constraint-errors.ts';
import { forgetSingleRows } from './single-row-reads.ts';

type Row = Record<string, unknown>;
export type WriteListener = (trx: Kysely<any>, event: WriteEvent) => Promise<void>;
/** Runs after the write's transaction committed; for side effects that must not happen on rollback (socket events). */
export type CommitListener = (event: WriteEvent) => void;
/**
 * Runs inside a workflow action's transaction, after the status moved: what an
 * action does besides moving the status (posting, reversing) belongs here.
 */
export type ActionListener = (trx: Kysely<any>, event: ActionEvent) => Promise<void>;
/** Fills server-derived values into a create's or update's input; `before` is the stored record with its lines (null on create). */
export type Preparer = (entity: EntitySchema, input: Row, before: Row | null) => void;
/**
 * Fills defaults that need the database or the caller (a document's issuing company) into a create's
 * body before it is judged, so a required field they give need not be sent. Reads through `k`, outside
 * the write's transaction; mutates `body` (a copy of what was sent). May answer, for a field it could not
 * fill, the problem to report instead of its plain `required` error (with the body's other problems).
 */
export type CreateDefaulter = (k: Kysely<any>, entity: EntitySchema, body: Row, ctx: RequestContext) => Promise<FieldError[] | void>;
/** Values an update's body takes before it is judged, read outside the write's transaction (document fills); mutates `body`, a copy. */
export type UpdateDefaulter = (entity: EntitySchema, id: number, body: Row, ctx: RequestContext) => Promise<void>;
/**
 * Which entities a listener is for, judged on their merged schema: what the schema declares (a
 * `document` with `lines`, an `enabledBy` switch…), so a listener never checks entity names itself
 * and a write is handed only to the listeners of its entity. Left out: every entity.
 */
export type EntitySelector = (entity: EntitySchema) => boolean;

/** For a feature of one entity or a few (an asset's history, the accounts' sessions): the entities it belongs to, by name. */
export const entitiesNamed = (...names: string[]): EntitySelector => (entity) => names.includes(entity.name);

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
  /**
   * Set by a listener that writes the action's own record or its lines (a number drawn on posting, a
   * closed shift's sums): the action's answer is then read again after the listeners. Without it the
   * answer is the record as read before the action with its new status and stamp, and `after` as the
   * listeners left it, which saves a posting two statements.
   */
  recordWritten?: boolean;
}

interface Registered<L> { listener: L; when?: EntitySelector }

/** Listeners per kind, in the order registered, each for the entities its selector picks. */
class ListenerList<L> {
  private readonly all: Registered<L>[] = [];
  /** Per merged schema object: a new override version brings new objects, so this never goes stale. */
  private picked = new WeakMap<EntitySchema, L[]>();

  add(listener: L, when?: EntitySelector): void {
    this.all.push({ listener, when });
    // a listener added after some were picked (registration happens at start): pick again
    this.picked = new WeakMap();
  }

  of(entity: EntitySchema): L[] {
    let out = this.picked.get(entity);
    if (!out) {
      out = this.all.filter((r) => !r.when || r.when(entity)).map((r) => r.listener);
      this.picked.set(entity, out);
    }
    return out;
  }
}

/**
 * The write events of the generic service: who listens to writes (inside the transaction, after
 * commit) and to workflow actions, the preparers and create defaults, and the transaction every
 * write runs in, with the steps left for its end (beforeCommit).
 */
export class WriteEvents {
  private readonly writes = new ListenerList<WriteListener>();
  private readonly commits = new ListenerList<CommitListener>();
  private readonly actions = new ListenerList<ActionListener>();
  readonly preparers: Preparer[] = [];
  readonly createDefaulters: CreateDefaulter[] = [];
  readonly updateDefaulters: UpdateDefaulter[] = [];
  /** Events of the transaction in progress per Kysely transaction object, announced after commit. */
  private readonly pending = new WeakMap<object, WriteEvent[]>();
  /** Work left for the end of the transaction in progress (beforeCommit), per Kysely transaction object. */
  private readonly lastSteps = new WeakMap<object, Record<'settle' | 'lock', (() => Promise<void>)[]>>();

  constructor(private readonly core: ServiceCore) {}

  onWrite(listener: WriteListener, when?: EntitySelector): void {
    this.writes.add(listener, when);
  }

  afterCommit(listener: CommitListener, when?: EntitySelector): void {
    this.commits.add(listener, when);
  }

  onAction(listener: ActionListener, when?: EntitySelector): void {
    this.actions.add(listener, when);
  }

  /** The action listeners of an entity, in the order registered. */
  actionListeners(entity: EntitySchema): ActionListener[] {
    return this.actions.of(entity);
  }

  /** Hands a write to its entity's write listeners (inside the transaction), and keeps it for the after-commit ones. */
  async emit(trx: Kysely<any>, event: WriteEvent): Promise<void> {
    const entity = this.core.entity(event.entity);
    // a single-row entity (kind "singleton") read once in this transaction is read again: the listeners judge it as this write left it
    if (entity.kind === 'singleton') forgetSingleRows(trx, entity.name);
    for (const l of this.writes.of(entity)) await l(trx, event);
    this.pending.get(trx)?.push(event);
  }

  /**
   * Runs `step` as one of the last statements of the write's transaction: after the other
   * listeners and the re-read, just before commit, in the order asked within its stage. Stage
   * `settle` (the record's number drawn late, then the audit row that records it) runs before stage
   * `lock` (statements that lock rows other writers queue for: stock balances). Both take hot locks
   * (a numbering series, balance rows) as late as they can, so those locks are held for a round trip
   * or two instead of for the rest of the write; the series before the balances, in every write, so
   * two writes never take them in opposite orders. A failing step rolls back the whole write as
   * before. In a transaction this service did not open, it runs at once.
   */
  async beforeCommit(trx: Kysely<any>, step: () => Promise<void>, stage: 'settle' | 'lock' = 'lock'): Promise<void> {
    const steps = this.lastSteps.get(trx);
    if (steps) steps[stage].push(step);
    else await step();
  }

  /** Runs a write in one transaction and turns constraint failures into catalogue errors. */
  async transaction<T>(entity: EntitySchema, work: (trx: Kysely<any>) => Promise<T>): Promise<T> {
    const events: WriteEvent[] = [];
    let result: T;
    try {
      result = await this.core.db.kysely.transaction().execute(async (trx) => {
        this.pending.set(trx, events);
        const steps = { settle: [] as (() => Promise<void>)[], lock: [] as (() => Promise<void>)[] };
        this.lastSteps.set(trx, steps);
        const done = await work(trx);
        // a step may ask for another one; it runs after those asked before it in its stage, and a settle step before any lock step left
        for (let s = 0, l = 0; s < steps.settle.length || l < steps.lock.length;) await (s < steps.settle.length ? steps.settle[s++]! : steps.lock[l++]!)();
        this.lastSteps.delete(trx);
        return done;
      });
    } catch (err) {
      throw constraintError(this.core, entity, err);
    }
    for (const e of events) {
      const written = this.core.registry.get(e.entity);
      if (written) for (const l of this.commits.of(written)) l(e);
    }
    return result;
  }
}
